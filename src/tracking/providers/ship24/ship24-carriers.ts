import { findCarrier } from '../../carriers';

/**
 * Ship24 `courierCode`s -> our carrier codes, for codes that differ from ours; a code equal to
 * one of our codes maps to itself without a row. Ship24 lists its codes at GET
 * /public/v1/couriers; these rows were not checked against it (UNCONFIRMED: one row each).
 */
export const SHIP24_COURIER_CARRIERS: Readonly<Record<string, string>> = {
  'us-post': 'usps',
  'dhl-express': 'dhl',
  'dhl-ecommerce-us': 'dhl-ecommerce',
  'gb-royal-mail': 'royal-mail',
  'de-dhl': 'deutsche-post',
  'fr-colissimo': 'la-poste',
  'nl-post': 'postnl',
  'cn-china-post': 'china-post',
  'china-ems': 'china-post',
  'ca-canada-post': 'canada-post',
  'au-australia-post': 'australia-post',
  'uk-evri': 'evri',
  hermes: 'evri',
};

/** Our carrier code for a Ship24 courier code, or null when we do not know that courier. */
export function carrierFromShip24Courier(courierCode: unknown): string | null {
  if (typeof courierCode !== 'string' || courierCode === '') return null;
  const key = courierCode.toLowerCase();
  if (Object.hasOwn(SHIP24_COURIER_CARRIERS, key)) return SHIP24_COURIER_CARRIERS[key];
  return findCarrier(key)?.code ?? null;
}

/** A tracker's `courierCode` is one code or up to three: the first one, or null. */
export function firstCourierCode(courierCode: unknown): string | null {
  const first = Array.isArray(courierCode) ? (courierCode as unknown[])[0] : courierCode;
  return typeof first === 'string' && first !== '' ? first : null;
}
