import { findCarrier, TEST_CARRIER_CODE } from '../../carriers';

/**
 * AfterShip courier slugs -> our carrier codes, for the slugs that differ from our codes. A
 * slug equal to one of our codes (ups, fedex, usps, dhl, royal-mail, canada-post, ...) maps to
 * itself without a row. The slugs are AfterShip's public courier slugs as integrations use
 * them; they were not checked against `GET /couriers/all` here (UNCONFIRMED: one row each).
 */
export const AFTERSHIP_SLUG_CARRIERS: Readonly<Record<string, string>> = {
  'dhl-global-mail': 'dhl-ecommerce',
  'amazon-shipping': 'amazon',
  hermes: 'evri',
  'landmark-global': 'landmark',
  'china-ems': 'china-post',
  'deutsch-post': 'deutsche-post',
  'la-poste-colissimo': 'la-poste',
  'postnl-3s': 'postnl',
  'postnl-international': 'postnl',
  'spain-correos-es': 'correos',
  'portugal-ctt': 'ctt',
  'sweden-posten': 'postnord-sweden',
  'danmark-post': 'postnord-denmark',
  'norway-post': 'posten-norge',
  'taiwan-post': 'chunghwa-post',
  'malaysia-post': 'pos-malaysia',
  'brazil-correios': 'correios-brazil',
  sapo: 'south-african-post-office',
};

/** Our carrier code -> the slug to create a tracking with, where it is not our code itself. */
export const AFTERSHIP_CARRIER_SLUGS: Readonly<Record<string, string>> = {
  'dhl-ecommerce': 'dhl-global-mail',
  landmark: 'landmark-global',
  'deutsche-post': 'deutsch-post',
  'la-poste': 'la-poste-colissimo',
  correos: 'spain-correos-es',
  ctt: 'portugal-ctt',
  'postnord-sweden': 'sweden-posten',
  'postnord-denmark': 'danmark-post',
  'posten-norge': 'norway-post',
  'chunghwa-post': 'taiwan-post',
  'pos-malaysia': 'malaysia-post',
  'correios-brazil': 'brazil-correios',
  'south-african-post-office': 'sapo',
};

/** Our carrier code for an AfterShip slug, or null when we do not know that courier. */
export function carrierFromAfterShipSlug(slug: unknown): string | null {
  if (typeof slug !== 'string' || slug === '') return null;
  const key = slug.toLowerCase();
  if (Object.hasOwn(AFTERSHIP_SLUG_CARRIERS, key)) return AFTERSHIP_SLUG_CARRIERS[key];
  return findCarrier(key)?.code ?? null;
}

/**
 * The slug to create a tracking with for our carrier code; null lets AfterShip detect the
 * courier (no code, or a carrier AfterShip does not know, such as our sandbox carrier).
 */
export function afterShipSlugForCarrier(carrierCode: string | null): string | null {
  if (carrierCode === null) return null;
  const code = carrierCode.toLowerCase();
  if (Object.hasOwn(AFTERSHIP_CARRIER_SLUGS, code)) return AFTERSHIP_CARRIER_SLUGS[code];
  const carrier = findCarrier(code);
  return carrier !== undefined && carrier.code !== TEST_CARRIER_CODE ? carrier.code : null;
}
