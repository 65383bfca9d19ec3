/**
 * UTAPI `service` values [official enum] -> our carrier codes (src/tracking/carriers). DHL
 * divisions without a carrier of their own in our catalogue report as `dhl`.
 */
export const DHL_SERVICE_CARRIERS: Readonly<Record<string, string>> = {
  express: 'dhl',
  ecommerce: 'dhl-ecommerce',
  'ecommerce-apac': 'dhl-ecommerce',
  'ecommerce-europe': 'dhl-ecommerce',
  'ecommerce-iberia': 'dhl-ecommerce',
  'ecommerce-ppl': 'dhl-ecommerce',
  'parcel-de': 'deutsche-post',
  'post-de': 'deutsche-post',
  'post-international': 'deutsche-post',
  'parcel-nl': 'dhl',
  'parcel-pl': 'dhl',
  'parcel-uk': 'dhl',
  freight: 'dhl',
  dgf: 'dhl',
  dsc: 'dhl',
  sameday: 'dhl',
  svb: 'dhl',
};

export const DHL_DEFAULT_CARRIER = 'dhl';

/** Our carrier codes the adapter tracks. */
export const DHL_CARRIERS: readonly string[] = [...new Set(Object.values(DHL_SERVICE_CARRIERS))];

export function dhlCarrierOf(service: string | null | undefined): string {
  return DHL_SERVICE_CARRIERS[(service ?? '').trim().toLowerCase()] ?? DHL_DEFAULT_CARRIER;
}
