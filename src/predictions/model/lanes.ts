/**
 * Lanes and the back-off chain. A parcel's deliveries are learnt at every level of the chain at
 * once (one key per level); a prediction uses the most specific level that has learnt enough.
 *
 * | level | key                                              | minimum deliveries |
 * | ----- | ------------------------------------------------ | ------------------ |
 * | 0     | carrier, origin, destination, postcode prefix    | 50                 |
 * | 1     | carrier, origin, destination (the lane)          | 25                 |
 * | 2     | carrier, destination                             | 25                 |
 * | 3     | carrier                                          | 25                 |
 * | 4     | the default (one per team, key '')               | -                  |
 *
 * Why 25: the empirical 80 % window of n past deliveries holds a new one with probability about
 * Beta-distributed around 0.8 with a standard deviation of 0.4 / sqrt(n + 2); n = 25 keeps that
 * below 0.08, so a level's window is not a coin toss. The postcode level splits a lane further
 * and is only worth it once the cell stands on its own: twice the data. Level 4 learns no
 * histogram (the default is fixed, defaults.ts); it keeps the coverage of default windows, so
 * that their confidence reflects the team's record too.
 */
export const LEVELS = [
  'lane_postcode',
  'lane',
  'carrier_destination',
  'carrier',
  'default',
] as const;
export type Level = (typeof LEVELS)[number];
export const LEVEL_COUNT = LEVELS.length;
export const DEFAULT_LEVEL = 4;

/** Minimum deliveries of a (level, stage) histogram before predictions use it (levels 0..3). */
export const MIN_DELIVERIES: readonly number[] = [50, 25, 25, 25];

/**
 * Minimum deliveries left after conditioning on the time already spent in the stage (those
 * that took longer than it): fewer, and the window comes from the next level. 10 keeps at least
 * one delivery below the 10 % quantile and one above the 90 % one.
 */
export const MIN_TAIL_DELIVERIES = 10;

/**
 * Minimum parcels of a (level, stage) silence histogram before its 95th percentile is trusted:
 * 40 puts two parcels above it.
 */
export const MIN_SILENCES = 40;

/** Where a parcel goes, as the lane keys read it. */
export interface LaneFacts {
  /** The origin carrier (the carrier the shop ships with). */
  readonly carrier: string | null;
  readonly originCountry: string | null;
  /** The tracked destination country, else the address's. */
  readonly destinationCountry: string | null;
  /** The recipient's postcode, when known. */
  readonly postcode: string | null;
}

/** One key per level (index = level); null where the level does not apply (no postcode). */
export type LaneKeys = readonly (string | null)[];

/** Characters of the postcode kept: regions (DE 2-digit Leitregion, FR département, UK area). */
export const POSTCODE_PREFIX_LENGTH = 2;

const UNKNOWN = '-';

export function normalizeCarrier(carrier: string | null | undefined): string {
  const c = (carrier ?? '').trim().toLowerCase();
  return c === '' ? UNKNOWN : c;
}

export function normalizeCountry(country: string | null | undefined): string {
  const c = (country ?? '').trim().toUpperCase();
  return /^[A-Z]{2}$/.test(c) ? c : UNKNOWN;
}

/** The postcode's region: its first characters, letters and digits only; null if too short. */
export function postcodePrefix(postcode: string | null | undefined): string | null {
  const p = (postcode ?? '').toUpperCase().replace(/[^0-9A-Z]/g, '');
  return p.length >= POSTCODE_PREFIX_LENGTH ? p.slice(0, POSTCODE_PREFIX_LENGTH) : null;
}

/** The parcel's key at every level. Unknown carriers and countries are a value of their own. */
export function laneKeys(lane: LaneFacts): LaneKeys {
  const carrier = normalizeCarrier(lane.carrier);
  const origin = normalizeCountry(lane.originCountry);
  const destination = normalizeCountry(lane.destinationCountry);
  const prefix = postcodePrefix(lane.postcode);
  return [
    prefix === null || destination === UNKNOWN
      ? null
      : `${carrier}|${origin}|${destination}|${prefix}`,
    `${carrier}|${origin}|${destination}`,
    `${carrier}|${destination}`,
    carrier,
    '',
  ];
}
