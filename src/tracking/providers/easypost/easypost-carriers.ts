import { findCarrier } from '../../carriers';

/**
 * EasyPost `carrier` names (as on trackers and in `tracking_details[].source`) -> our carrier
 * codes. From EasyPost's carrier list as integrations use it; not checked against the API
 * (UNCONFIRMED: one row each). Lookup ignores case; other names are matched to our codes as is.
 */
export const EASYPOST_CARRIERS: Readonly<Record<string, string>> = {
  usps: 'usps',
  ups: 'ups',
  upsmailinnovations: 'ups',
  fedex: 'fedex',
  fedexsmartpost: 'fedex',
  dhlexpress: 'dhl',
  dhlecommerce: 'dhl-ecommerce',
  dhlecs: 'dhl-ecommerce',
  canadapost: 'canada-post',
  purolator: 'purolator',
  ontrac: 'ontrac',
  lasership: 'lasership',
  canpar: 'canpar',
  dpd: 'dpd',
  dpduk: 'dpd-uk',
  yodel: 'yodel',
  evri: 'evri',
  royalmail: 'royal-mail',
  australiapost: 'australia-post',
  amazonshipping: 'amazon',
  landmarkglobal: 'landmark',
  gls: 'gls',
  aramex: 'aramex',
};

/** Our code -> the carrier name to create a tracker with (null: let EasyPost detect it). */
export function easyPostCarrierFor(carrierCode: string | null): string | null {
  if (carrierCode === null) return null;
  const code = carrierCode.toLowerCase();
  return Object.hasOwn(EASYPOST_CARRIER_NAMES, code) ? EASYPOST_CARRIER_NAMES[code] : null;
}

/** Display spelling EasyPost expects in requests, by our code. */
const EASYPOST_CARRIER_NAMES: Readonly<Record<string, string>> = {
  usps: 'USPS',
  ups: 'UPS',
  fedex: 'FedEx',
  dhl: 'DHLExpress',
  'dhl-ecommerce': 'DHLeCommerce',
  'canada-post': 'CanadaPost',
  purolator: 'Purolator',
  ontrac: 'OnTrac',
  lasership: 'LaserShip',
  canpar: 'Canpar',
  dpd: 'DPD',
  'dpd-uk': 'DPDUK',
  yodel: 'Yodel',
  evri: 'Evri',
  'royal-mail': 'RoyalMail',
  'australia-post': 'AustraliaPost',
  amazon: 'AmazonShipping',
};

/** Our carrier code for an EasyPost carrier name, or null when we do not know it. */
export function carrierFromEasyPost(name: unknown): string | null {
  if (typeof name !== 'string' || name.trim() === '') return null;
  const key = name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
  if (Object.hasOwn(EASYPOST_CARRIERS, key)) return EASYPOST_CARRIERS[key];
  return findCarrier(name.trim().toLowerCase())?.code ?? null;
}
