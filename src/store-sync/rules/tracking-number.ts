/** Longest tracking number a shipment accepts (shipment.entity.ts). */
const MAX_LENGTH = 100;

/**
 * A store's tracking number as a shipment's: stores keep what merchants typed
 * ("1Z 999 AA1 01 2345 6784", "LX-123-456-789-CN"), shipments accept letters and digits only.
 * Spaces, dashes, dots and slashes are dropped; anything else left (or nothing at all) is not a
 * tracking number: null, and the parcel is reported instead of imported.
 */
export function normalizeTrackingNumber(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const compact = raw.replace(/[\s\-./]+/g, '');
  if (compact === '' || compact.length > MAX_LENGTH || !/^[a-zA-Z\d]+$/.test(compact)) return null;
  return compact;
}
