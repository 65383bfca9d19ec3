import { getNumericCodes } from 'i18n-iso-countries';
import { S10_COUNTRY_CARRIERS, TEST_CARRIER_CODE } from './carrier-catalogue';
import { Mod10Options, WeightedModOptions } from './checksums';

/**
 * Tracking number formats, as data.
 *
 * A format is a fixed-length layout of parts (literals, character fields, named groups),
 * written for the NORMALISED number (uppercase, no spaces or dashes). The detector compiles
 * each layout once into an anchored regular expression with named groups and into the
 * offsets of every group, so a check digit is verified by reading char codes in place.
 * Formats with optional pieces are spelled out as one variant per shape.
 *
 * Facts (layouts, check-digit algorithms, parameters, published test numbers) follow the
 * MIT-licensed tracking_number_data project (github.com/jkeen/tracking_number_data,
 * couriers/*.json); the definitions below are our own.
 *
 * The check digit lives in the group `CheckDigit`; the checksum covers the group
 * `SerialNumber`.
 */

/** A fixed-width field: `pattern` matches exactly `length` characters. */
export interface FieldPart {
  kind: 'field';
  pattern: string;
  length: number;
  group?: string;
}

/** A named group around other parts. */
export interface GroupPart {
  kind: 'group';
  group: string;
  parts: readonly Part[];
}

/** A zero-width assertion (regex source), e.g. a negative lookahead. */
export interface GuardPart {
  kind: 'guard';
  source: string;
}

/** A plain string is a literal. */
export type Part = string | FieldPart | GroupPart | GuardPart;

export type ChecksumSpec =
  | ({ algorithm: 'mod10' } & Mod10Options)
  | { algorithm: 'mod7' }
  | { algorithm: 's10' }
  | { algorithm: 'luhn' }
  | { algorithm: 'mod37-36' }
  | ({ algorithm: 'weighted-mod' } & WeightedModOptions);

export interface TrackingNumberFormat {
  /** Stable id, unique per variant. */
  id: string;
  carrierCode: string;
  /** Human name of the format, shared by its variants. */
  name: string;
  parts: readonly Part[];
  checksum?: ChecksumSpec;
  /** Extra fields that must hold one of the listed values. */
  fieldChecks?: readonly { group: string; allowed: readonly string[] }[];
  /** The carrier is read from a field (S10 country suffix -> national post). */
  carrierFromGroup?: { group: string; carriers: ReadonlyMap<string, string> };
  /**
   * Added to the score; used where two carriers share a layout and one is the better
   * default (see the definitions). Negative for heuristic formats.
   */
  priority?: number;
}

/** Variable-length formats, tried on every number (only the test carrier). */
export interface PatternFormat {
  id: string;
  carrierCode: string;
  name: string;
  /** Anchored regex over the normalised number. */
  regex: RegExp;
  /** Literal start of every match, checked before the regex. */
  prefix: string;
  minLength: number;
  score: number;
}

// Part builders ---------------------------------------------------------------------------

export const digits = (length: number, group?: string): FieldPart => ({
  kind: 'field',
  pattern: '[0-9]',
  length,
  group,
});
export const letters = (length: number, group?: string): FieldPart => ({
  kind: 'field',
  pattern: '[A-Z]',
  length,
  group,
});
export const alnum = (length: number, group?: string): FieldPart => ({
  kind: 'field',
  pattern: '[A-Z0-9]',
  length,
  group,
});
/** A field matching `pattern` (one character class, repeated) or an exact-width alternation. */
export const field = (pattern: string, length: number, group?: string): FieldPart => ({
  kind: 'field',
  pattern,
  length,
  group,
});
export const group = (name: string, ...parts: Part[]): GroupPart => ({
  kind: 'group',
  group: name,
  parts,
});
export const guard = (source: string): GuardPart => ({ kind: 'guard', source });

const SERIAL = 'SerialNumber';
const CHECK = 'CheckDigit';
const serial = (...parts: Part[]): GroupPart => group(SERIAL, ...parts);
const checkDigit = (): FieldPart => digits(1, CHECK);

// Checksum parameter sets -------------------------------------------------------------------

/** USPS, FedEx SmartPost/SSCC, Canada Post: 3 on even positions, 1 on odd ones. */
const MOD10_3_1 = { algorithm: 'mod10', evensMultiplier: 3, oddsMultiplier: 1 } as const;
/** FedEx Ground: 1 on even positions, 3 on odd ones. */
const MOD10_1_3 = { algorithm: 'mod10', evensMultiplier: 1, oddsMultiplier: 3 } as const;
/** UPS and OnTrac: letters become (code - 3) mod 10, odd positions doubled. */
const MOD10_1_2 = { algorithm: 'mod10', evensMultiplier: 1, oddsMultiplier: 2 } as const;
/** FedEx Express: weights 1,3,7 from the right, then mod 11, then mod 10. */
const FEDEX_1_3_7 = {
  algorithm: 'weighted-mod',
  weightsFromRight: [1, 3, 7],
  modulo1: 11,
  modulo2: 10,
} as const;

/** UPU S10 service indicators (first two letters) that the standard assigns. */
const S10_SERVICE_INDICATOR = '(?:[CEHLMRUV][A-Z]|Q[A-M]|[BDNPZ][A-Z]|A[V-Z]|G[AD])';

/** ISO 3166 numeric country codes, plus 991 that DPD uses for the Canary Islands. */
const DPD_COUNTRY_CODES: readonly string[] = [...Object.keys(getNumericCodes()), '991'];

// Formats -----------------------------------------------------------------------------------

function uspsImpbVariants(): TrackingNumberFormat[] {
  const out: TrackingNumberFormat[] = [];
  for (const routing of [false, true]) {
    for (const ai of [true, false]) {
      for (const packageLength of [11, 7]) {
        const parts: Part[] = routing ? ['420', digits(5, 'DestinationZip')] : [];
        if (!ai) parts.push(guard('(?!9[1-5])'));
        parts.push(
          serial(
            ...(ai ? [field('9[1-5]', 2, 'ApplicationIdentifier')] : []),
            digits(2, 'SCNC'),
            digits(2, 'ServiceType'),
            digits(8, 'ShipperId'),
            digits(packageLength, 'PackageId'),
          ),
          checkDigit(),
        );
        const length = (routing ? 8 : 0) + (ai ? 2 : 0) + 12 + packageLength + 1;
        out.push({
          id: `usps-impb-${length}${routing ? '-420' : ''}${ai ? '' : '-implied-91'}`,
          carrierCode: 'usps',
          name: 'USPS IMpb',
          parts,
          // Without a printed application identifier the number is checked as if it began with 91.
          checksum: ai ? MOD10_3_1 : { ...MOD10_3_1, implicitPrefix: '91' },
        });
      }
    }
  }
  return out;
}

function uspsRouted34Variants(): TrackingNumberFormat[] {
  return [true, false].map((ai) => ({
    id: `usps-420-zip4-${ai ? 34 : 32}`,
    carrierCode: 'usps',
    name: 'USPS IMpb with ZIP+4 routing',
    parts: [
      '420',
      digits(5, 'DestinationZip'),
      digits(4, 'RoutingNumber'),
      serial(
        ...(ai ? [field('9[2-5]', 2, 'ApplicationIdentifier')] : []),
        digits(8, 'ShipperId'),
        digits(11, 'PackageId'),
      ),
      checkDigit(),
    ],
    checksum: MOD10_3_1,
  }));
}

function lengthRange(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

export const TRACKING_NUMBER_FORMATS: readonly TrackingNumberFormat[] = [
  // UPS
  {
    id: 'ups-1z',
    carrierCode: 'ups',
    name: 'UPS 1Z',
    parts: [
      '1Z',
      serial(alnum(6, 'ShipperId'), alnum(2, 'ServiceType'), alnum(7, 'PackageId')),
      checkDigit(),
    ],
    checksum: MOD10_1_2,
  },

  // FedEx
  {
    id: 'fedex-express-12',
    carrierCode: 'fedex',
    name: 'FedEx Express (12)',
    parts: [serial(digits(11)), checkDigit()],
    checksum: FEDEX_1_3_7,
  },
  {
    id: 'fedex-express-34',
    carrierCode: 'fedex',
    name: 'FedEx Express (34)',
    parts: [
      '100',
      digits(2),
      digits(10),
      digits(5, 'DestinationZip'),
      serial(digits(13)),
      checkDigit(),
    ],
    checksum: FEDEX_1_3_7,
  },
  {
    // SmartPost numbers are USPS IMpb barcodes (delivered by USPS); a bare 92... number
    // therefore defaults to USPS, hence the lower priority.
    id: 'fedex-smartpost-22',
    carrierCode: 'fedex',
    name: 'FedEx SmartPost',
    parts: [
      serial(
        group('ApplicationIdentifier', '92'),
        digits(3, 'ServiceType'),
        digits(9, 'ShipperId'),
        digits(7, 'PackageId'),
      ),
      checkDigit(),
    ],
    checksum: MOD10_3_1,
    priority: -10,
  },
  {
    id: 'fedex-smartpost-20',
    carrierCode: 'fedex',
    name: 'FedEx SmartPost',
    parts: [
      guard('(?!92)'),
      serial(digits(3, 'ServiceType'), digits(9, 'ShipperId'), digits(7, 'PackageId')),
      checkDigit(),
    ],
    checksum: { ...MOD10_3_1, implicitPrefix: '92' },
    priority: -10,
  },
  {
    id: 'fedex-ground-15',
    carrierCode: 'fedex',
    name: 'FedEx Ground',
    parts: [serial(digits(14)), checkDigit()],
    checksum: MOD10_1_3,
  },
  {
    id: 'fedex-ground-sscc-18',
    carrierCode: 'fedex',
    name: 'FedEx Ground (SSCC-18)',
    parts: [digits(2, 'ShippingContainerType'), serial(digits(15)), checkDigit()],
    checksum: MOD10_3_1,
  },
  {
    id: 'fedex-ground-96-22',
    carrierCode: 'fedex',
    name: 'FedEx Ground 96 (22)',
    parts: [
      group('ApplicationIdentifier', '96'),
      digits(2, 'SCNC'),
      digits(3, 'ServiceType'),
      serial(digits(7, 'ShipperId'), digits(7, 'PackageId')),
      checkDigit(),
    ],
    checksum: MOD10_1_3,
  },
  {
    id: 'fedex-ground-gsn-34',
    carrierCode: 'fedex',
    name: 'FedEx Ground GSN',
    parts: [
      group('ApplicationIdentifier', '96'),
      digits(2, 'SCNC'),
      digits(5),
      digits(10, 'GSN'),
      digits(1),
      serial(digits(13)),
      checkDigit(),
    ],
    checksum: FEDEX_1_3_7,
  },

  // USPS
  {
    id: 'usps-20',
    carrierCode: 'usps',
    name: 'USPS 20',
    parts: [
      serial(digits(2, 'ServiceType'), digits(9, 'ShipperId'), digits(8, 'PackageId')),
      checkDigit(),
    ],
    checksum: MOD10_3_1,
  },
  ...uspsImpbVariants(),
  ...uspsRouted34Variants(),

  // DHL
  {
    id: 'dhl-express-10',
    carrierCode: 'dhl',
    name: 'DHL Express',
    parts: [serial(digits(9)), checkDigit()],
    checksum: { algorithm: 'mod7' },
  },
  {
    id: 'dhl-express-11',
    carrierCode: 'dhl',
    name: 'DHL Express Air',
    parts: [serial(digits(10)), checkDigit()],
    checksum: { algorithm: 'mod7' },
  },
  ...lengthRange(16, 22).map((n): TrackingNumberFormat => ({
    id: `dhl-ecommerce-gm-${n + 2}`,
    carrierCode: 'dhl-ecommerce',
    name: 'DHL eCommerce GM',
    parts: ['GM', digits(n, SERIAL)],
  })),

  // Amazon
  {
    id: 'amazon-tba',
    carrierCode: 'amazon',
    name: 'Amazon Logistics',
    parts: ['TB', field('[ACM]', 1, 'Marketplace'), digits(12, SERIAL)],
  },

  // OnTrac: the leading C takes part in the sum with the UPS letter value (C -> 4).
  {
    id: 'ontrac-c',
    carrierCode: 'ontrac',
    name: 'OnTrac C',
    parts: [serial('C', digits(13)), checkDigit()],
    checksum: MOD10_1_2,
  },
  {
    id: 'ontrac-d',
    carrierCode: 'ontrac',
    name: 'OnTrac D',
    parts: ['D', digits(14, SERIAL)],
  },

  // LaserShip
  {
    id: 'lasership-lx',
    carrierCode: 'lasership',
    name: 'LaserShip LX',
    parts: ['LX1', field('[3-8]', 1), digits(6, SERIAL)],
  },
  {
    id: 'lasership-1ls7-15',
    carrierCode: 'lasership',
    name: 'LaserShip 1LS7',
    parts: ['1LS7', field('[12]', 1), digits(4), digits(6, SERIAL)],
  },
  {
    // Printed as ...-1; the dash is dropped by normalisation.
    id: 'lasership-1ls7-18',
    carrierCode: 'lasership',
    name: 'LaserShip 1LS7 (18)',
    parts: ['1LS7', field('[12]', 1), digits(2), '01', field('[1-4]', 1), digits(6, SERIAL), '1'],
  },

  // Canada Post
  {
    id: 'canada-post-16',
    carrierCode: 'canada-post',
    name: 'Canada Post (16)',
    parts: [serial(digits(7, 'OriginId'), digits(8)), checkDigit()],
    checksum: MOD10_3_1,
  },

  // Purolator
  {
    id: 'purolator-12',
    carrierCode: 'purolator',
    name: 'Purolator (12)',
    parts: [serial(field('[0-5]', 1), digits(10)), checkDigit()],
    checksum: { algorithm: 'luhn' },
  },
  {
    id: 'purolator-alpha',
    carrierCode: 'purolator',
    name: 'Purolator (alpha + 9)',
    parts: [letters(3), digits(9, SERIAL)],
  },

  // Canpar
  {
    id: 'canpar-22',
    carrierCode: 'canpar',
    name: 'Canpar (22)',
    parts: [field('[CDKLSUXZ]', 1), digits(21, SERIAL)],
  },

  // DPD: the check character is alphanumeric.
  {
    id: 'dpd-28',
    carrierCode: 'dpd',
    name: 'DPD parcel number',
    parts: [
      serial(
        digits(7, 'DestinationZip'),
        digits(14),
        digits(3, 'ServiceType'),
        digits(3, 'CountryCode'),
      ),
      alnum(1, CHECK),
    ],
    checksum: { algorithm: 'mod37-36' },
    fieldChecks: [{ group: 'CountryCode', allowed: DPD_COUNTRY_CODES }],
  },

  // Yodel
  { id: 'yodel-jd', carrierCode: 'yodel', name: 'Yodel', parts: ['JD', digits(16, SERIAL)] },
  { id: 'yodel-jjd', carrierCode: 'yodel', name: 'Yodel', parts: ['JJD', digits(16, SERIAL)] },

  // YunExpress, Landmark, Spee-Dee, GOFO
  {
    id: 'yunexpress-yt',
    carrierCode: 'yunexpress',
    name: 'YunExpress',
    parts: ['YT', digits(16, SERIAL)],
  },
  {
    id: 'landmark-ltn',
    carrierCode: 'landmark',
    name: 'Landmark Global LTN',
    parts: ['LTN', digits(8, SERIAL), 'N1'],
  },
  { id: 'speedee-sp', carrierCode: 'speedee', name: 'Spee-Dee', parts: ['SP', digits(18, SERIAL)] },
  {
    id: 'gofo-gfus',
    carrierCode: 'gofo',
    name: 'GOFO Express',
    parts: ['GFUS', digits(14, SERIAL)],
  },

  // Old Dominion PRO numbers (Luhn over the whole serial, prefix included)
  ...['777', '072'].map((prefix): TrackingNumberFormat => ({
    id: `old-dominion-${prefix}`,
    carrierCode: 'old-dominion',
    name: 'Old Dominion',
    parts: [serial(prefix, digits(7)), checkDigit()],
    checksum: { algorithm: 'luhn' },
  })),
  {
    id: 'old-dominion-guaranteed',
    carrierCode: 'old-dominion',
    name: 'Old Dominion Guaranteed Shipment',
    parts: [serial('80', digits(8)), checkDigit()],
    checksum: { algorithm: 'luhn' },
  },

  // Deutsche Post piece codes carry a CRC-4 check character that we do not verify; only
  // the shape is recognised (with at least one letter, so that plain 20-digit numbers of
  // other carriers are not claimed), at the lowest priority.
  {
    id: 'deutsche-post-piececode',
    carrierCode: 'deutsche-post',
    name: 'Deutsche Post piece code',
    parts: [
      guard('(?=.*[A-Z])'),
      digits(2),
      alnum(7),
      digits(4),
      alnum(6),
      alnum(1, 'CheckCharacter'),
    ],
    priority: -10,
  },

  // UPU S10: the country suffix selects the national post.
  {
    id: 's10',
    carrierCode: 's10',
    name: 'S10 international',
    parts: [
      field(S10_SERVICE_INDICATOR, 2, 'ServiceIndicator'),
      serial(digits(8)),
      checkDigit(),
      letters(2, 'CountryCode'),
    ],
    checksum: { algorithm: 's10' },
    carrierFromGroup: { group: 'CountryCode', carriers: S10_COUNTRY_CARRIERS },
  },
];

/** Formats that cannot be expressed as one fixed layout; tried on every number. */
export const PATTERN_FORMATS: readonly PatternFormat[] = [
  {
    id: 'tm-test',
    carrierCode: TEST_CARRIER_CODE,
    name: 'TrackMage test number',
    regex: /^TM(?<Scenario>[0-9]{3}).*TM$/,
    prefix: 'TM',
    minLength: 7,
    // Far above any real format: a test number must always win outright.
    score: 1000,
  },
];
