import { createHash } from 'node:crypto';
import type {
  ImportedOrder,
  ImportedOrderItem,
  ImportedOrderRecords,
  ImportedShipment,
} from './order-mapping';

/** A record imported earlier, by its store id (store_sync_record). */
export interface ImportedLink {
  readonly kind: 'order' | 'order_item' | 'shipment';
  readonly storeId: string;
  /** Our record's id. */
  readonly recordId: string;
  /** Digest of what the store said last time (recordDigest). */
  readonly digest: string | null;
  /** Shipments: the tracking number they were given last time. */
  readonly trackingNumber: string | null;
}

export interface PlannedRecord<T> {
  readonly record: T;
  readonly digest: string;
  /** The record imported before, or null: create it. */
  readonly existing: ImportedLink | null;
  /** Created, or the store changed it since: write it. */
  readonly write: boolean;
}

export interface PlannedShipment extends PlannedRecord<ImportedShipment> {
  /** The store gave the parcel another tracking number: the shipment moves to it. */
  readonly moved: boolean;
}

/** What importing one store order again writes: only what the store changed. */
export interface ImportPlan {
  readonly order: PlannedRecord<ImportedOrder>;
  readonly items: ReadonlyArray<PlannedRecord<ImportedOrderItem>>;
  /** Lines the store order no longer has. */
  readonly removedItems: readonly ImportedLink[];
  readonly shipments: readonly PlannedShipment[];
  /** Parcels the store order no longer has (and no new parcel took over). */
  readonly removedShipments: readonly ImportedLink[];
  /** Nothing to write: the order is as it was imported last time. */
  readonly unchanged: boolean;
}

export interface PlanOptions {
  /**
   * The platform gives a parcel a new id when its number changes (WooCommerce's Shipment
   * Tracking makes a new tracking item): parcels gone are paired with new ones, in order.
   */
  readonly parcelIdsFollowNumbers: boolean;
}

/**
 * What an import of a store order does with what was imported before (links by store id):
 * records without a link are created, linked ones are written only when their digest differs
 * (running twice writes nothing twice), a linked parcel with another number moves its shipment
 * to it, and records the store dropped are removed. A new parcel carrying the number of a
 * parcel that went is the same parcel under a new id (its shipment moves over, not a second
 * shipment); where the platform renews parcel ids with their numbers, the remaining parcels
 * gone and new are paired in order. A shipment is written again when an item it carries is
 * new (a line recreated), as its items point at records.
 */
export function planOrderImport(
  records: ImportedOrderRecords,
  links: readonly ImportedLink[],
  options: PlanOptions,
): ImportPlan {
  const of = (kind: ImportedLink['kind']) =>
    new Map(links.filter((l) => l.kind === kind).map((l) => [l.storeId, l]));
  const orderLink = of('order').get(records.order.externalSourceSyncId) ?? null;
  const orderDigest = recordDigest(records.order);
  const order: PlannedRecord<ImportedOrder> = {
    record: records.order,
    digest: orderDigest,
    existing: orderLink,
    write: orderLink === null || orderLink.digest !== orderDigest,
  };

  const itemLinks = of('order_item');
  const items = records.items.map((item): PlannedRecord<ImportedOrderItem> => {
    const existing = itemLinks.get(item.externalSourceSyncId) ?? null;
    const digest = recordDigest(item);
    return {
      record: item,
      digest,
      existing,
      write: existing === null || existing.digest !== digest,
    };
  });
  const keptItems = new Set(records.items.map((i) => i.externalSourceSyncId));
  const removedItems = [...itemLinks.values()].filter((l) => !keptItems.has(l.storeId));
  const newItems = new Set(
    items.filter((i) => i.existing === null).map((i) => i.record.externalSourceSyncId),
  );

  const shipmentLinks = of('shipment');
  const gone = [...shipmentLinks.values()].filter(
    (l) => !records.shipments.some((s) => s.externalSourceSyncId === l.storeId),
  );
  const taken = new Set<ImportedLink>();
  const unlinked = records.shipments.filter((s) => !shipmentLinks.has(s.externalSourceSyncId));
  const successor = new Map<ImportedShipment, ImportedLink>();
  for (const shipment of unlinked) {
    const sameNumber = gone.find(
      (l) =>
        !taken.has(l) && l.trackingNumber?.toUpperCase() === shipment.trackingNumber.toUpperCase(),
    );
    if (sameNumber) {
      successor.set(shipment, sameNumber);
      taken.add(sameNumber);
    }
  }
  if (options.parcelIdsFollowNumbers) {
    const left = gone.filter((l) => !taken.has(l));
    for (const shipment of unlinked) {
      if (successor.has(shipment) || left.length === 0) continue;
      const link = left.shift()!;
      successor.set(shipment, link);
      taken.add(link);
    }
  }
  const shipments = records.shipments.map((shipment): PlannedShipment => {
    const existing =
      shipmentLinks.get(shipment.externalSourceSyncId) ?? successor.get(shipment) ?? null;
    const digest = recordDigest(shipment);
    const moved =
      existing !== null &&
      existing.trackingNumber !== null &&
      existing.trackingNumber !== shipment.trackingNumber;
    const carriesNewItem = shipment.items.some((i) => newItems.has(i.orderItemSyncId));
    return {
      record: shipment,
      digest,
      existing,
      moved,
      write:
        existing === null ||
        existing.digest !== digest ||
        existing.storeId !== shipment.externalSourceSyncId ||
        carriesNewItem ||
        // A recreated order: its shipments link the new record.
        (orderLink === null && existing !== null),
    };
  });
  const removedShipments = gone.filter((l) => !taken.has(l));
  const unchanged =
    !order.write &&
    items.every((i) => !i.write) &&
    removedItems.length === 0 &&
    shipments.every((s) => !s.write) &&
    removedShipments.length === 0;
  return { order, items, removedItems, shipments, removedShipments, unchanged };
}

/** A stable digest of a mapped record: keys sorted, so equal content digests alike. */
export function recordDigest(record: unknown): string {
  return createHash('sha256').update(stableJson(record)).digest('base64url').slice(0, 32);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
