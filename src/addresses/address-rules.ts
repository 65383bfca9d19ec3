import * as countries from 'i18n-iso-countries';
import { ValidateBy } from 'class-validator';
import { ViolationCodes } from '../common/errors/api-errors';
import type { Address } from './address';

const FIELDS: Array<keyof Address> = [
  'addressLine1',
  'addressLine2',
  'city',
  'company',
  'country',
  'countryIso2',
  'firstName',
  'lastName',
  'postcode',
  'state',
];

/** Symfony's Country constraint: an ISO 3166-1 alpha-2 code. */
export const CountryIso2 = () =>
  ValidateBy(
    {
      name: 'countryIso2',
      validator: {
        validate: (v) =>
          v == null || (typeof v === 'string' && /^[A-Z]{2}$/.test(v) && countries.isValid(v)),
      },
    },
    {
      groups: ['post', 'put'],
      message: 'This value is not a valid country.',
      context: { code: ViolationCodes.invalid },
    },
  );

/**
 * Cleans an address before validation: trims fields, turns blank ones into
 * null, upper-cases the country code, and fills in the country name from
 * the code (or the code from an English country name) when only one is
 * given, so filters on either work.
 */
export function normalizeAddress(address: Address | null | undefined): void {
  if (!address) return;
  for (const field of FIELDS) {
    const v = address[field];
    address[field] = typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
  }
  if (address.countryIso2) address.countryIso2 = address.countryIso2.toUpperCase();
  if (address.countryIso2 && !address.country && countries.isValid(address.countryIso2)) {
    address.country = countries.getName(address.countryIso2, 'en') ?? null;
  } else if (address.country && !address.countryIso2) {
    address.countryIso2 = countries.getAlpha2Code(address.country, 'en') ?? null;
  }
}

/** True when no field of the address holds a value. */
export function isEmptyAddress(address: Address | null | undefined): boolean {
  return !address || FIELDS.every((f) => address[f] == null);
}
