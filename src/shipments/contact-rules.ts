import { isValidPhoneNumber } from 'libphonenumber-js';
import type { CountryCode } from 'libphonenumber-js';
import { ValidateBy } from 'class-validator';
import { ViolationCodes } from '../common/errors/api-errors';

/** Answers remembered by isValidPhone, by country and number; emptied when full. */
const answers = new Map<string, boolean>();
const REMEMBERED_ANSWERS = 1_000;

/**
 * A customer phone number is valid in international form (`+14155552671`)
 * or in the national form of the given country (the address's country).
 * Parsing costs a quarter of a millisecond, and an order's number is checked for the order,
 * its mapping from a store and each parcel: answers are remembered (a pure function).
 */
export function isValidPhone(value: string, countryIso2?: string | null): boolean {
  const country =
    countryIso2 && /^[A-Z]{2}$/.test(countryIso2) ? (countryIso2 as CountryCode) : undefined;
  const key = `${country ?? ''}|${value}`;
  const known = answers.get(key);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    valid = country ? isValidPhoneNumber(value, country) : isValidPhoneNumber(value);
  } catch {
    valid = false;
  }
  if (answers.size >= REMEMBERED_ANSWERS) answers.clear();
  answers.set(key, valid);
  return valid;
}

/**
 * Symfony-style constraint on a phone number property; `countryOf` reads the
 * country used for national numbers from the object being validated.
 */
export const PhoneNumber = (countryOf: (object: any) => string | null | undefined) =>
  ValidateBy(
    {
      name: 'phoneNumber',
      validator: {
        validate: (v, args) =>
          v == null ||
          v === '' ||
          (typeof v === 'string' && isValidPhone(v, countryOf(args?.object))),
      },
    },
    {
      groups: ['post', 'put'],
      message: 'This value is not a valid phone number.',
      context: { code: ViolationCodes.invalid },
    },
  );
