import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../../database/query';
import type { ImportedLink } from '../rules/import-plan';

/** A record imported from a store order, as written after its import. */
export interface RecordLink {
  kind: ImportedLink['kind'];
  storeId: string;
  recordId: string;
  digest: string;
  trackingNumber: string | null;
}

/** An imported shipment as tracking sent back needs it. */
export interface ShipmentLink {
  workflowId: string;
  shipmentId: string;
  storeOrderId: string;
  /** The parcel's store id (`{id}` or `{id}:2` for a second number of one fulfillment). */
  storeId: string;
}

/**
 * The store_sync_record table's SQL: what a store workflow imported, by store order and store
 * id, with the digest of what the store said (an unchanged order is not written again). A row
 * goes with its record (ON DELETE CASCADE), so a record deleted here is imported again when its
 * store order next changes.
 */
@Injectable()
export class StoreSyncRecordStore {
  /**
   * The records imported from one store order; with `lock`, in the caller's transaction, which
   * then holds the order's lock until it commits (two imports of one order never interleave).
   */
  async ofOrder(
    runner: SqlRunner,
    workflowId: string,
    storeOrderId: string,
    lock = true,
  ): Promise<ImportedLink[]> {
    return (await this.ofStoreOrders(runner, workflowId, [storeOrderId], lock)).get(storeOrderId)!;
  }

  /**
   * ofOrder for several store orders in two statements at most (a page imported in one
   * transaction): their locks taken in one, in key order (two such transactions never wait
   * for each other in a circle), then their records read in one. Every id given has an entry.
   */
  async ofStoreOrders(
    runner: SqlRunner,
    workflowId: string,
    storeOrderIds: readonly string[],
    lock = true,
  ): Promise<Map<string, ImportedLink[]>> {
    const out = new Map<string, ImportedLink[]>(storeOrderIds.map((id) => [id, []]));
    if (storeOrderIds.length === 0) return out;
    if (lock) {
      const keys = storeOrderIds.map((id) => `store-sync:${workflowId}:${id}`).sort();
      await query(
        runner,
        `SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))
           FROM (SELECT k FROM unnest($1::text[]) AS k ORDER BY k) s`,
        [keys],
      );
    }
    const rows = await query<{
      store_order_id: string;
      kind: ImportedLink['kind'];
      store_id: string;
      record_id: string;
      digest: string | null;
      tracking_number: string | null;
    }>(
      runner,
      `SELECT store_order_id, kind, store_id,
              COALESCE(order_id, order_item_id, shipment_id) AS record_id, digest, tracking_number
         FROM store_sync_record WHERE workflow_id = $1 AND store_order_id = ANY($2::text[])`,
      [workflowId, storeOrderIds],
    );
    for (const r of rows)
      out.get(r.store_order_id)?.push({
        kind: r.kind,
        storeId: r.store_id,
        recordId: r.record_id,
        digest: r.digest,
        trackingNumber: r.tracking_number,
      });
    return out;
  }

  /**
   * Records the import of a store order's records (new ones, or their new digest or store
   * id); `replaces` are store ids whose record now answers to another (a parcel renewed).
   * New rows announce the status their shipment got at import unless `announceInitial` is
   * false (the first backfill: the store knows its old parcels).
   */
  async save(
    runner: SqlRunner,
    workflowId: string,
    storeOrderId: string,
    links: readonly RecordLink[],
    replaces: ReadonlyArray<{ kind: ImportedLink['kind']; storeId: string }>,
    announceInitial: boolean,
  ): Promise<void> {
    await this.saveMany(runner, workflowId, [{ storeOrderId, links, replaces }], announceInitial);
  }

  /**
   * `save` for several store orders (a share imported in one transaction): every replaced
   * store id deleted in one statement, then every record written in one. A store order's keys
   * are its own (store_order_id is part of them), so the deletes going first for all is the
   * same as going first for each.
   */
  async saveMany(
    runner: SqlRunner,
    workflowId: string,
    orders: ReadonlyArray<{
      storeOrderId: string;
      links: readonly RecordLink[];
      replaces: ReadonlyArray<{ kind: ImportedLink['kind']; storeId: string }>;
    }>,
    announceInitial: boolean,
  ): Promise<void> {
    const replaces = orders.flatMap((o) =>
      o.replaces.map((r) => ({
        store_order_id: o.storeOrderId,
        kind: r.kind,
        store_id: r.storeId,
      })),
    );
    if (replaces.length > 0)
      await query(
        runner,
        `DELETE FROM store_sync_record r
          USING jsonb_to_recordset($2::jsonb) AS g(store_order_id text, kind text, store_id text)
          WHERE r.workflow_id = $1 AND r.store_order_id = g.store_order_id AND r.kind = g.kind
            AND r.store_id = g.store_id`,
        [workflowId, JSON.stringify(replaces)],
      );
    const links = orders.flatMap((o) =>
      o.links.map((l) => ({
        store_order_id: o.storeOrderId,
        kind: l.kind,
        store_id: l.storeId,
        record_id: l.recordId,
        digest: l.digest,
        tracking_number: l.trackingNumber,
      })),
    );
    if (links.length === 0) return;
    await query(
      runner,
      `INSERT INTO store_sync_record (workflow_id, store_order_id, kind, store_id, order_id,
                                      order_item_id, shipment_id, digest, tracking_number,
                                      announce_initial)
       SELECT $1, l.store_order_id, l.kind, l.store_id,
              CASE WHEN l.kind = 'order' THEN l.record_id END,
              CASE WHEN l.kind = 'order_item' THEN l.record_id END,
              CASE WHEN l.kind = 'shipment' THEN l.record_id END,
              l.digest, l.tracking_number, $3
         FROM jsonb_to_recordset($2::jsonb)
              AS l(store_order_id text, kind text, store_id text, record_id uuid, digest text,
                   tracking_number text)
       ON CONFLICT (workflow_id, store_order_id, kind, store_id) DO UPDATE SET
         digest = EXCLUDED.digest, tracking_number = EXCLUDED.tracking_number,
         order_id = EXCLUDED.order_id, order_item_id = EXCLUDED.order_item_id,
         shipment_id = EXCLUDED.shipment_id`,
      [workflowId, JSON.stringify(links), announceInitial],
    );
  }

  /** Forgets records removed by the import (their rows usually went with them already). */
  async forget(
    runner: SqlRunner,
    workflowId: string,
    storeOrderId: string,
    gone: ReadonlyArray<{ kind: ImportedLink['kind']; storeId: string }>,
  ): Promise<void> {
    await this.save(runner, workflowId, storeOrderId, [], gone, true);
  }

  /**
   * The store workflows each status change of a shipment is sent back to (one list per change,
   * in order): those that imported the shipment and are run here, unless the change is the
   * status the shipment got in the import that created it (same transaction time) and that
   * import was the first backfill.
   */
  async pushTargets(
    runner: SqlRunner,
    changes: readonly { shipmentId: string; at: Date }[],
  ): Promise<string[][]> {
    const lists = changes.map((): string[] => []);
    if (changes.length === 0) return lists;
    const rows = await query<{ i: number; workflow_id: string }>(
      runner,
      `SELECT c.i::int AS i, r.workflow_id
         FROM unnest($1::uuid[], $2::timestamptz[]) WITH ORDINALITY AS c(shipment_id, at, i)
         JOIN store_sync_record r ON r.shipment_id = c.shipment_id
                                 AND (r.announce_initial OR r.created_at < c.at)
         JOIN store_sync_state s ON s.workflow_id = r.workflow_id AND s.active
        ORDER BY c.i, r.workflow_id`,
      [changes.map((c) => c.shipmentId), changes.map((c) => c.at)],
    );
    for (const row of rows) lists[row.i - 1].push(row.workflow_id);
    return lists;
  }

  /** The store ids of an imported shipment for one workflow; null when it was not imported. */
  async shipmentLink(
    runner: SqlRunner,
    workflowId: string,
    shipmentId: string,
  ): Promise<ShipmentLink | null> {
    const [row] = await query<{ store_order_id: string; store_id: string }>(
      runner,
      `SELECT store_order_id, store_id FROM store_sync_record
        WHERE workflow_id = $1 AND shipment_id = $2 LIMIT 1`,
      [workflowId, shipmentId],
    );
    return row
      ? { workflowId, shipmentId, storeOrderId: row.store_order_id, storeId: row.store_id }
      : null;
  }

  /** Our shipments imported from one store order. */
  async orderShipments(
    runner: SqlRunner,
    workflowId: string,
    storeOrderId: string,
  ): Promise<string[]> {
    const rows = await query<{ shipment_id: string }>(
      runner,
      `SELECT shipment_id FROM store_sync_record
        WHERE workflow_id = $1 AND store_order_id = $2 AND kind = 'shipment'`,
      [workflowId, storeOrderId],
    );
    return rows.map((r) => r.shipment_id);
  }

  /** Our records imported from these store orders (privacy requests), by kind. */
  async ofOrders(
    runner: SqlRunner,
    workflowId: string,
    storeOrderIds: readonly string[] | null,
  ): Promise<Array<{ kind: ImportedLink['kind']; recordId: string; storeOrderId: string }>> {
    const rows = await query<{
      kind: ImportedLink['kind'];
      record_id: string;
      store_order_id: string;
    }>(
      runner,
      `SELECT kind, COALESCE(order_id, order_item_id, shipment_id) AS record_id, store_order_id
         FROM store_sync_record
        WHERE workflow_id = $1 AND ($2::text[] IS NULL OR store_order_id = ANY($2::text[]))
        ORDER BY kind DESC, store_order_id`,
      [workflowId, storeOrderIds],
    );
    return rows.map((r) => ({
      kind: r.kind,
      recordId: r.record_id,
      storeOrderId: r.store_order_id,
    }));
  }
}
