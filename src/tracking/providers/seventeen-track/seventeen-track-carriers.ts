/**
 * 17TRACK numeric carrier keys of carriers in our catalogue. UNCONFIRMED as a whole: these keys
 * come from client code, not from 17TRACK's official list (apicarrier.all.json, not fetched);
 * one repository claims 7041 for DHL, left out. A key not listed maps to no carrier.
 */
export const SEVENTEEN_TRACK_CARRIER_KEYS: Readonly<Record<number, string>> = {
  3011: 'china-post',
  100001: 'dhl',
  100002: 'ups',
  100003: 'fedex',
  21051: 'usps',
};

const KEY_BY_CODE: ReadonlyMap<string, number> = new Map(
  Object.entries(SEVENTEEN_TRACK_CARRIER_KEYS).map(([key, code]) => [code, Number(key)]),
);

/** Our carrier code of a 17TRACK key, or null. */
export function carrierOfSeventeenTrackKey(key: unknown): string | null {
  const n = typeof key === 'string' && /^\d+$/.test(key) ? Number(key) : key;
  return typeof n === 'number' &&
    Object.prototype.hasOwnProperty.call(SEVENTEEN_TRACK_CARRIER_KEYS, n)
    ? SEVENTEEN_TRACK_CARRIER_KEYS[n]
    : null;
}

/** The 17TRACK key of our carrier code, or undefined (17TRACK then detects the carrier). */
export function seventeenTrackKeyOf(carrierCode: string | null): number | undefined {
  return carrierCode === null ? undefined : KEY_BY_CODE.get(carrierCode);
}
