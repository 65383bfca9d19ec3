import { CARRIERS } from '../../tracking/carriers/carrier-catalogue';

/**
 * Store carrier names that are neither our code nor our catalogue name once normalised:
 * Shopify's tracking companies, the WooCommerce Shipment Tracking extension's providers and
 * BigCommerce's `tracking_carrier` / `shipping_provider` codes. Names that could be several of
 * our carriers ("Hermes": UK or Germany; "PostNord": Sweden or Denmark; "EMS") are left out on
 * purpose: detection from the number decides them.
 */
const ALIASES: Readonly<Record<string, string>> = {
  amazonlogisticsus: 'amazon',
  amazonlogisticsuk: 'amazon',
  amazonshipping: 'amazon',
  dhl: 'dhl',
  dhlexpressus: 'dhl',
  dhlglobalmail: 'dhl-ecommerce',
  dhlecommerceasia: 'dhl-ecommerce',
  dhlecommerceus: 'dhl-ecommerce',
  dhlus: 'dhl-ecommerce',
  fedexground: 'fedex',
  fedexexpress: 'fedex',
  fedexsmartpost: 'fedex',
  unitedstatespostalservice: 'usps',
  postescanada: 'canada-post',
  auspost: 'australia-post',
  nzpost: 'new-zealand-post',
  postnlinternational: 'postnl',
  postnlinternationalmail: 'postnl',
  colissimo: 'la-poste',
  laposte: 'la-poste',
  lapostecolissimo: 'la-poste',
  chinaems: 'china-post',
  chinapostems: 'china-post',
  singpost: 'singapore-post',
  dpdde: 'dpd',
  dpdfr: 'dpd',
  dpdlocal: 'dpd-uk',
  dpdcouk: 'dpd-uk',
  hermesuk: 'evri',
  myhermesuk: 'evri',
  tntexpress: 'tnt',
  tntexpressconsignment: 'tnt',
  correosspain: 'correos',
  postch: 'swiss-post',
  postat: 'austrian-post',
  osterreichischepost: 'austrian-post',
};

/** Lower case, accents and everything but letters and digits removed ("Österreichische Post" -> "osterreichischepost"). */
export function normalizeCarrierName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Normalised code and name of every catalogue carrier -> its code (codes first). */
const BY_NAME: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const carrier of CARRIERS) map.set(normalizeCarrierName(carrier.code), carrier.code);
  for (const carrier of CARRIERS) {
    const key = normalizeCarrierName(carrier.name);
    if (!map.has(key)) map.set(key, carrier.code);
  }
  for (const [alias, code] of Object.entries(ALIASES)) map.set(alias, code);
  return map;
})();

/**
 * Our carrier code for a store's carrier name or code ("UPS", "Royal Mail", "auspost",
 * "FedEx SmartPost"); null when it does not map (then detection decides from the number).
 */
export function carrierCodeForStoreName(name: string | null | undefined): string | null {
  if (typeof name !== 'string') return null;
  const key = normalizeCarrierName(name);
  if (key === '') return null;
  return BY_NAME.get(key) ?? null;
}

/** The aliases, for the spec: each must name a carrier of the catalogue. */
export const CARRIER_NAME_ALIASES = ALIASES;
