import { Carrier } from './carrier';
import { NATIONAL_POSTS } from './national-posts';

/** The sandbox carrier answering the documented test numbers `TM<3 digits><anything>TM`. */
export const TEST_CARRIER_CODE = 'tm-test';

function courier(c: Omit<Carrier, 'image' | 'phone'> & { phone?: string | null }): Carrier {
  return { ...c, phone: c.phone ?? null, image: null };
}

/** Couriers and other non-postal carriers. */
const COURIERS: readonly Carrier[] = [
  courier({
    code: 'ups',
    name: 'UPS',
    phone: '+18007425877',
    url: 'https://www.ups.com',
    countryIso2Codes: ['US'],
    description: 'United Parcel Service.',
    trackingUrlTemplate: 'https://www.ups.com/track?tracknum={trackingNumber}',
  }),
  courier({
    code: 'fedex',
    name: 'FedEx',
    phone: '+18004633339',
    url: 'https://www.fedex.com',
    countryIso2Codes: ['US'],
    description: 'FedEx Express, Ground and Ground Economy (SmartPost).',
    trackingUrlTemplate: 'https://www.fedex.com/fedextrack/?trknbr={trackingNumber}',
  }),
  courier({
    code: 'dhl',
    name: 'DHL Express',
    url: 'https://www.dhl.com',
    countryIso2Codes: ['DE'],
    description: 'DHL Express international waybills.',
    trackingUrlTemplate:
      'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id={trackingNumber}',
  }),
  courier({
    code: 'dhl-ecommerce',
    name: 'DHL eCommerce',
    url: 'https://www.dhl.com',
    countryIso2Codes: ['US'],
    description: 'DHL eCommerce parcel services.',
    trackingUrlTemplate:
      'https://www.dhl.com/global-en/home/tracking.html?submit=1&tracking-id={trackingNumber}',
  }),
  courier({
    code: 'amazon',
    name: 'Amazon Logistics',
    url: 'https://www.amazon.com',
    countryIso2Codes: ['US', 'CA', 'MX'],
    description: "Amazon's own delivery network (TBA/TBC/TBM numbers).",
    trackingUrlTemplate: 'https://track.amazon.com/tracking/{trackingNumber}',
  }),
  courier({
    code: 'ontrac',
    name: 'OnTrac',
    url: 'https://www.ontrac.com',
    countryIso2Codes: ['US'],
    description: 'Regional parcel carrier in the United States.',
    trackingUrlTemplate: 'https://www.ontrac.com/tracking/?number={trackingNumber}',
  }),
  courier({
    code: 'lasership',
    name: 'LaserShip',
    url: 'https://www.lasership.com',
    countryIso2Codes: ['US'],
    description: 'Regional parcel carrier in the eastern United States (now part of OnTrac).',
    trackingUrlTemplate: 'https://www.lasership.com/track/{trackingNumber}',
  }),
  courier({
    code: 'purolator',
    name: 'Purolator',
    url: 'https://www.purolator.com',
    countryIso2Codes: ['CA'],
    description: 'Canadian courier.',
    trackingUrlTemplate:
      'https://www.purolator.com/en/shipping/tracker?searchValue={trackingNumber}',
  }),
  courier({
    code: 'canpar',
    name: 'Canpar Express',
    url: 'https://www.canpar.com',
    countryIso2Codes: ['CA'],
    description: 'Canadian courier.',
    trackingUrlTemplate:
      'https://www.canpar.com/en/track/tracking.jsp?reference={trackingNumber}&locale=en',
  }),
  courier({
    code: 'dpd',
    name: 'DPD',
    url: 'https://www.dpd.com',
    countryIso2Codes: ['DE', 'FR', 'NL', 'BE', 'AT', 'PL'],
    description: 'DPD group parcel network (28-character parcel label numbers).',
    trackingUrlTemplate: 'https://tracking.dpd.de/status/en_US/parcel/{trackingNumber}',
  }),
  courier({
    code: 'dpd-uk',
    name: 'DPD UK',
    url: 'https://www.dpd.co.uk',
    countryIso2Codes: ['GB'],
    description: 'DPD in the United Kingdom.',
    trackingUrlTemplate: null,
  }),
  courier({
    code: 'yodel',
    name: 'Yodel',
    url: 'https://www.yodel.co.uk',
    countryIso2Codes: ['GB'],
    description: 'UK parcel carrier (JD / JJD numbers).',
    trackingUrlTemplate: 'https://www.yodel.co.uk/tracking/{trackingNumber}',
  }),
  courier({
    code: 'evri',
    name: 'Evri',
    url: 'https://www.evri.com',
    countryIso2Codes: ['GB'],
    description: 'UK parcel carrier, formerly Hermes UK.',
    trackingUrlTemplate: 'https://www.evri.com/track/parcel/{trackingNumber}/details',
  }),
  courier({
    code: 'yunexpress',
    name: 'YunExpress',
    url: 'https://www.yunexpress.com',
    countryIso2Codes: ['CN'],
    description: 'Cross-border e-commerce logistics (YT numbers).',
    trackingUrlTemplate: 'https://www.yuntrack.com/parcelTracking?id={trackingNumber}',
  }),
  courier({
    code: 'landmark',
    name: 'Landmark Global',
    url: 'https://landmarkglobal.com',
    countryIso2Codes: ['BE', 'US'],
    description: 'Cross-border e-commerce logistics (LTN numbers).',
    trackingUrlTemplate: 'https://track.landmarkglobal.com/?search={trackingNumber}',
  }),
  courier({
    code: 'old-dominion',
    name: 'Old Dominion Freight Line',
    url: 'https://www.odfl.com',
    countryIso2Codes: ['US'],
    description: 'LTL freight carrier (PRO numbers).',
    trackingUrlTemplate: 'https://www.odfl.com/Trace/standardResult.faces?pro={trackingNumber}',
  }),
  courier({
    code: 'speedee',
    name: 'Spee-Dee Delivery',
    url: 'https://www.speedeedelivery.com',
    countryIso2Codes: ['US'],
    description: 'Regional parcel carrier in the upper Midwest.',
    trackingUrlTemplate: 'https://www.speedeedelivery.com/track/?tracking={trackingNumber}',
  }),
  courier({
    code: 'gofo',
    name: 'GOFO Express',
    url: 'https://www.gofoexpress.com',
    countryIso2Codes: ['US'],
    description: 'US last-mile parcel carrier (GFUS numbers).',
    trackingUrlTemplate: 'https://www.gofoexpress.com/tracking.html?searchID={trackingNumber}',
  }),
  courier({
    code: 'tnt',
    name: 'TNT',
    url: 'https://www.tnt.com',
    countryIso2Codes: ['NL'],
    description: 'TNT Express, part of FedEx.',
    trackingUrlTemplate:
      'https://www.tnt.com/express/en_gc/site/shipping-tools/tracking.html?searchType=con&cons={trackingNumber}',
  }),
  courier({
    code: 'gls',
    name: 'GLS',
    url: 'https://gls-group.com',
    countryIso2Codes: ['NL', 'DE'],
    description: 'General Logistics Systems parcel network.',
    trackingUrlTemplate: 'https://gls-group.com/GROUP/en/parcel-tracking?match={trackingNumber}',
  }),
  courier({
    code: 'aramex',
    name: 'Aramex',
    url: 'https://www.aramex.com',
    countryIso2Codes: ['AE'],
    description: 'International express courier.',
    trackingUrlTemplate:
      'https://www.aramex.com/us/en/track/results?ShipmentNumber={trackingNumber}',
  }),
  courier({
    code: TEST_CARRIER_CODE,
    name: 'TrackMage Test Carrier',
    url: null,
    countryIso2Codes: [],
    description:
      'Sandbox carrier: numbers of the form TM<3 digits><anything>TM answer canned tracking data.',
    trackingUrlTemplate: null,
  }),
];

/** Every carrier we know, couriers first, then national posts; codes are unique. */
export const CARRIERS: readonly Carrier[] = Object.freeze([...COURIERS, ...NATIONAL_POSTS]);

const BY_CODE: ReadonlyMap<string, Carrier> = new Map(CARRIERS.map((c) => [c.code, c]));

/** The carrier with this code (case-insensitive), or undefined. */
export function findCarrier(code: string): Carrier | undefined {
  return BY_CODE.get(code) ?? BY_CODE.get(code.toLowerCase());
}

/**
 * UPU S10 country suffix -> national post carrier code. Built from the national posts so that
 * adding a post to the catalogue is all it takes to map its S10 numbers.
 */
export const S10_COUNTRY_CARRIERS: ReadonlyMap<string, string> = new Map(
  NATIONAL_POSTS.map((p) => [p.countryIso2Codes[0], p.code]),
);

/** The carrier's public tracking page for this number, or null when it has none. */
export function trackingUrlFor(carrier: Carrier | string, trackingNumber: string): string | null {
  const c = typeof carrier === 'string' ? findCarrier(carrier) : carrier;
  if (!c?.trackingUrlTemplate) return null;
  return c.trackingUrlTemplate.split('{trackingNumber}').join(encodeURIComponent(trackingNumber));
}
