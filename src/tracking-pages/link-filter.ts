import { typeError } from '../hydra/write/denormalizer';

/** `filter` of generate_tracking_page_link: a shipment id, a customer e-mail or order numbers. */
export interface LinkFilter {
  id?: string | string[];
  email?: string;
  orderNumbers?: string[];
}

/**
 * Reads `filter` as the reference's clients send it: `{id}`, `{email}` (the WooCommerce
 * plugin's link for an order's customer) or `{orderNumbers: [..] | ".."}`. Wrong types are a
 * 400 naming the attribute; blank values count as absent.
 */
export function parseLinkFilter(raw: unknown): LinkFilter {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    // PHP sends an empty map as [].
    if (Array.isArray(raw) && raw.length === 0) return {};
    throw typeError('filter', 'array', raw);
  }
  const input = raw as Record<string, unknown>;
  const out: LinkFilter = {};
  const { id, email, orderNumbers } = input;
  if (id !== undefined && id !== null) {
    if (typeof id === 'string') out.id = id;
    else if (Array.isArray(id) && id.every((x) => typeof x === 'string')) out.id = id as string[];
    else throw typeError('filter.id', 'string', id);
  }
  if (email !== undefined && email !== null) {
    if (typeof email !== 'string') throw typeError('filter.email', 'string', email);
    if (email.trim() !== '') out.email = email.trim();
  }
  if (orderNumbers !== undefined && orderNumbers !== null) {
    const list = typeof orderNumbers === 'string' ? [orderNumbers] : orderNumbers;
    if (!Array.isArray(list) || list.some((n) => typeof n !== 'string'))
      throw typeError('filter.orderNumbers', 'array', orderNumbers);
    const numbers = (list as string[]).map((n) => n.trim()).filter((n) => n !== '');
    if (numbers.length) out.orderNumbers = numbers;
  }
  return out;
}
