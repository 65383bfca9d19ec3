/** What a customer typed into a tracking page's home: a tracking number, or an order. */
export type HomeSearch =
  | { kind: 'trackingNumber'; trackingNumber: string }
  | { kind: 'order'; orderNumber: string; email: string | null; phoneTail: string | null };

export interface HomeSearchValues {
  trackingNumber: string;
  orderNumber: string;
  contact: string;
}

/** Control characters (NUL included, which PostgreSQL text refuses) never match anything. */
const CONTROL = /\p{Cc}/gu;

const text = (v: unknown, max: number): string =>
  typeof v === 'string' ? v.replace(CONTROL, '').trim().slice(0, max) : '';

/** The form's fields: each, when given, must be a string (else the request is malformed). */
export const HOME_SEARCH_FIELDS = ['by', 'trackingNumber', 'orderNumber', 'contact', 'lang', 'tz'];

/** Whether a body is the form's: an object whose known fields are strings. */
export function isHomeSearchBody(body: unknown): body is Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const fields = body as Record<string, unknown>;
  return HOME_SEARCH_FIELDS.every((k) => fields[k] === undefined || typeof fields[k] === 'string');
}

/** The form's values as typed (strings only, trimmed, bounded), to show them again. */
export function homeSearchValues(body: Record<string, unknown>): HomeSearchValues {
  return {
    trackingNumber: text(body.trackingNumber, 100),
    orderNumber: text(body.orderNumber, 100),
    contact: text(body.contact, 254),
  };
}

/** Shortest phone number tail that identifies an order; longer input compares its last nine. */
const MIN_PHONE_DIGITS = 7;
const PHONE_TAIL = 9;

/**
 * The search a form asks for, or null when it is incomplete: a tracking number (button
 * `by=trackingNumber`, or no order number given), or an order number with an e-mail address
 * (anything with `@`) or a phone number (seven digits at least).
 */
export function parseHomeSearch(body: Record<string, unknown>): HomeSearch | null {
  const v = homeSearchValues(body);
  const by = body.by === 'order' || body.by === 'trackingNumber' ? body.by : null;
  if (by === 'trackingNumber' || (by === null && v.trackingNumber && !v.orderNumber)) {
    const compact = v.trackingNumber.replace(/[\s-]+/g, '');
    return compact ? { kind: 'trackingNumber', trackingNumber: compact } : null;
  }
  if (!v.orderNumber || !v.contact) return null;
  if (v.contact.includes('@'))
    return { kind: 'order', orderNumber: v.orderNumber, email: v.contact, phoneTail: null };
  const digits = v.contact.replace(/\D/g, '');
  if (digits.length < MIN_PHONE_DIGITS) return null;
  return {
    kind: 'order',
    orderNumber: v.orderNumber,
    email: null,
    phoneTail: digits.slice(-PHONE_TAIL),
  };
}
