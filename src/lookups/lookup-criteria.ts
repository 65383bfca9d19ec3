import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { ValidationError, ViolationCodes, type Violation } from '../common/errors/api-errors';
import { optionalString } from './request-fields';

/** The fewest trailing digits a phone look-up compares: shorter numbers match too much. */
export const MIN_PHONE_DIGITS = 6;

/** What a look-up searches for; every given criterion must match (AND). */
export interface LookupCriteria {
  trackingNumber?: string;
  orderNumber?: string;
  /** Lower-cased. */
  email?: string;
  /** National significant digits of the phone number, matched as a suffix. */
  phoneDigits?: string;
  /** One free-text value matched against every kind above (OR). */
  query?: {
    text: string;
    email?: string;
    phoneDigits?: string;
  };
}

export const LOOKUP_FIELDS = ['trackingNumber', 'orderNumber', 'email', 'phoneNumber', 'query'];

/**
 * The digits a stored number must end with to be the same phone: the national significant
 * number when the input is international (`+44 20 7946 0958`, `0044 ...` -> `2079460958`),
 * else the input's digits without trunk or international zeros (`020 7946 0958` ->
 * `2079460958`, `(415) 555-2671` -> `4155552671`). So `+1 415 555 2671` stored finds
 * `(415) 555-2671` typed, and the other way round. Null when there are too few digits.
 */
export function phoneSuffix(input: string): string | null {
  const international = input.trim().replace(/^00/, '+');
  const parsed = international.startsWith('+')
    ? parsePhoneNumberFromString(international)
    : undefined;
  const digits = parsed?.nationalNumber
    ? String(parsed.nationalNumber)
    : input.replace(/\D/g, '').replace(/^0+/, '');
  return digits.length >= MIN_PHONE_DIGITS ? digits : null;
}

/** Looks like a phone number: digits with the usual separators, enough of them. */
function phoneLike(text: string): boolean {
  return /^[+\d(][\d\s().-]*$/.test(text) && phoneSuffix(text) !== null;
}

/**
 * The criteria of a look-up body: `trackingNumber`, `orderNumber`, `email`, `phoneNumber`
 * (each optional, all given must match) and `query` (one value matched against all four).
 * 400 for a non-string value, 422 when nothing usable is given.
 */
export function lookupCriteria(body: Record<string, unknown>): LookupCriteria {
  const criteria: LookupCriteria = {};
  const violations: Violation[] = [];
  criteria.trackingNumber = optionalString(body, 'trackingNumber');
  criteria.orderNumber = optionalString(body, 'orderNumber');
  criteria.email = optionalString(body, 'email')?.toLowerCase();
  const phone = optionalString(body, 'phoneNumber');
  if (phone !== undefined) {
    const digits = phoneSuffix(phone);
    if (digits === null) {
      violations.push({
        propertyPath: 'phoneNumber',
        message: `This value should contain at least ${MIN_PHONE_DIGITS} digits.`,
        code: ViolationCodes.tooShort,
      });
    } else criteria.phoneDigits = digits;
  }
  const text = optionalString(body, 'query');
  if (text !== undefined) {
    criteria.query = {
      text,
      email: text.includes('@') ? text.toLowerCase() : undefined,
      phoneDigits: phoneLike(text) ? (phoneSuffix(text) ?? undefined) : undefined,
    };
  }
  if (violations.length) throw new ValidationError(violations);
  for (const key of Object.keys(criteria) as Array<keyof LookupCriteria>) {
    if (criteria[key] === undefined) delete criteria[key];
  }
  if (Object.keys(criteria).length === 0) {
    throw ValidationError.of(
      '',
      'Give at least one of trackingNumber, orderNumber, email, phoneNumber or query.',
      ViolationCodes.notBlank,
    );
  }
  return criteria;
}
