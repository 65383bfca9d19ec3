import { type Violation, ViolationCodes } from '../common/errors/api-errors';
import { identifierFrom } from '../hydra/core/identifiers';

/**
 * The pure rules of a shipment's write (ShipmentsService): no database, no state, so each is
 * checked by a unit spec (shipment-write-rules.spec.ts).
 */

/** What a PUT compares the shipment with: the stored row's fields. */
export interface StoredShipmentFields {
  trackingNumber: string | null;
  originCarrier: string | null;
}

/**
 * An empty tracking number means none; surrounding spaces are dropped. A
 * number of spaces only is kept as sent so the pattern rejects it.
 */
export function trimTrackingNumber(value: string | null | undefined): string | null {
  if (value === undefined || value === null || value === '') return null;
  const trimmed = value.trim();
  return trimmed === '' ? value : trimmed;
}

/** Order numbers trimmed, without blanks and duplicates, in the given order. */
export function cleanOrderNumbers(numbers: string[] | null | undefined): string[] {
  const out: string[] = [];
  for (const n of numbers ?? []) {
    const t = n.trim();
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}

/**
 * The origin carrier a PUT keeps: it is given once, so it stays while the tracking number
 * stays; a new number is identified again, from the body when it names one, else from the
 * number (null here, decided by decideOriginCarrier in validation).
 */
export function carrierOnPut(
  stored: StoredShipmentFields,
  next: { trackingNumber: string | null; originCarrier: string | null },
  carrierGiven: boolean,
): string | null {
  const numberChanged = next.trackingNumber !== stored.trackingNumber;
  if (!numberChanged && stored.originCarrier !== null) return stored.originCarrier;
  if (numberChanged && !carrierGiven) return null;
  return next.originCarrier;
}

/** Whether a PUT leaves the identified carrier as stored (no identification again). */
export function carrierFixed(
  stored: StoredShipmentFields | null,
  next: { trackingNumber: string | null; originCarrier: string | null },
): boolean {
  return (
    stored !== null &&
    stored.originCarrier !== null &&
    next.originCarrier === stored.originCarrier &&
    next.trackingNumber === stored.trackingNumber
  );
}

/** Whether the write gives the shipment a number it did not have (a create with one). */
export function trackingNumberChanged(
  stored: StoredShipmentFields | null,
  trackingNumber: string | null,
): boolean {
  return stored ? stored.trackingNumber !== trackingNumber : trackingNumber !== null;
}

/** Linked orders must belong to the shipment's workspace (`workspaces`: each order's). */
export function foreignOrderViolations(
  ids: readonly string[],
  workspaces: ReadonlyMap<string, string>,
  workspaceId: string,
): Violation[] {
  return ids.flatMap((id, i) =>
    workspaces.get(id) === workspaceId
      ? []
      : [
          {
            propertyPath: `orders[${i}]`,
            message: 'The order must belong to the workspace of the shipment.',
            code: ViolationCodes.invalid,
          },
        ],
  );
}

/**
 * Items listed in `shipmentItems` must already be items of this shipment (`owners`: each
 * item's shipment); a new shipment has none.
 */
export function foreignItemViolations(
  ids: readonly string[],
  owners: ReadonlyMap<string, string>,
  shipmentId: string | undefined,
): Violation[] {
  return ids.flatMap((id, i) =>
    shipmentId && owners.get(id) === shipmentId
      ? []
      : [
          {
            propertyPath: `shipmentItems[${i}]`,
            message:
              'The shipment item belongs to another shipment; items are added through POST /shipment_items.',
            code: ViolationCodes.invalid,
          },
        ],
  );
}

/**
 * The orders whose representation a create or replace changes through their links: those it
 * links or unlinks (their `shipments`), and its linked ones when the tracking number comes or
 * goes (their `shipmentsWithoutTrackingCount`).
 */
export function ordersChangedByLinks(change: {
  before: readonly string[];
  after: readonly string[];
  /** The stored number before a PUT; undefined on a create. */
  storedNumber?: string | null;
  trackingNumber: string | null;
}): Set<string> {
  const before = new Set(change.before);
  const after = new Set(change.after);
  const ids = new Set<string>();
  for (const id of before) if (!after.has(id)) ids.add(id);
  for (const id of after) if (!before.has(id)) ids.add(id);
  if (
    change.storedNumber !== undefined &&
    (change.storedNumber === null) !== (change.trackingNumber === null)
  ) {
    for (const id of after) ids.add(id);
  }
  return ids;
}

/** The id of a reference given as an IRI (or an object with `@id`), else null. */
export function referencedId(value: unknown): string | null {
  const ref =
    value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['@id'] : value;
  return typeof ref === 'string' ? identifierFrom(ref) : null;
}

export function has(body: Record<string, unknown>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, name);
}
