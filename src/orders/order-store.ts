import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { lockAllForTransaction, lockForTransaction } from '../database/advisory-lock';
import { VisibleMemory } from '../hydra/collection/visible-memory';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import { atTopLevel, transactionOf } from '../database/transaction-scope';
import { deferredRefreshOf } from './deferred-refresh';
import { orderItemSql } from '../order-items/order-item-store';
import { shipmentItemSql } from '../shipment-items/shipment-item-store';
import { shipmentOrderSql } from '../shipments/shipment-records-store';

/** Pieces of SQL over orders for other modules' statements. Arguments are SQL expressions. */
export const orderSql = {
  /** The order's currency: text. */
  currency: (orderId: string): string =>
    `(SELECT o.currency FROM "order" o WHERE o.id = ${orderId})`,

  /** The order's number: text or null. */
  orderNumber: (orderId: string): string =>
    `(SELECT o.order_number FROM "order" o WHERE o.id = ${orderId})`,
};

/** What VisibleMemory remembers an order's workspace under. */
const orderWorkspaceFact = (id: string) => `order.workspace/${id}`;

/** What VisibleMemory remembers a new order's number and workspace under (refs). */
const orderRefFact = (id: string) => `order.ref/${id}`;

/** A new order's workspace, for the lines its transaction writes next (workspaceOf). */
export function rememberOrderWorkspace(em: EntityManager, id: string, workspaceId: string) {
  VisibleMemory.note(em, orderWorkspaceFact(id), workspaceId);
}

/**
 * A new order's workspace and number, for the lines and parcels its transaction writes next
 * (workspaceOf, refs): neither ever changes (the number is set on POST only).
 */
export function rememberNewOrder(
  em: EntityManager,
  id: string,
  workspaceId: string,
  orderNumber: string | null,
) {
  rememberOrderWorkspace(em, id, workspaceId);
  VisibleMemory.note(em, orderRefFact(id), JSON.stringify({ workspaceId, orderNumber }));
}

/** Orders a transaction locked at its top level (held until it ends), by its query runner. */
const lockedOrders = new WeakMap<object, Set<string>>();

/** The shipments an order's deletion changes. */
export interface ShipmentOfOrder {
  shipmentId: string;
  /** Linked to the order (else it only carries items of it). */
  linked: boolean;
}

/** The "order" table's SQL: prepared statements on the caller's transaction, typed rows. */
@Injectable()
export class OrderStore {
  /**
   * Orders by id with their number and workspace (those that exist). One order its transaction
   * created and remembers (rememberNewOrder: a parcel naming its new order) is not read.
   */
  async refs(
    em: EntityManager,
    ids: readonly string[],
  ): Promise<Array<{ id: string; orderNumber: string | null; workspaceId: string }>> {
    if (ids.length === 0) return [];
    const known = ids.length === 1 ? VisibleMemory.recall(em, orderRefFact(ids[0])) : undefined;
    if (known !== undefined) {
      const { workspaceId, orderNumber } = JSON.parse(known) as {
        workspaceId: string;
        orderNumber: string | null;
      };
      return [{ id: ids[0], orderNumber, workspaceId }];
    }
    const rows = await query<{ id: string; order_number: string | null; workspace_id: string }>(
      em,
      'SELECT id, order_number, workspace_id FROM "order" WHERE id = ANY($1::uuid[])',
      [ids],
    );
    return rows.map((r) => ({
      id: r.id,
      orderNumber: r.order_number,
      workspaceId: r.workspace_id,
    }));
  }

  /** The workspace's orders carrying one of these numbers. */
  async byNumbers(
    em: EntityManager,
    workspaceId: string,
    numbers: readonly string[],
  ): Promise<Array<{ id: string; orderNumber: string }>> {
    if (numbers.length === 0) return [];
    const rows = await query<{ id: string; order_number: string }>(
      em,
      'SELECT id, order_number FROM "order" WHERE workspace_id = $1 AND order_number = ANY($2::text[])',
      [workspaceId, numbers],
    );
    return rows.map((r) => ({ id: r.id, orderNumber: r.order_number }));
  }

  /**
   * The order's workspace, or null when there is no such order. An order never changes
   * workspace: a transaction that remembers its references (an import's lines name their
   * order) reads it once (VisibleMemory), until it deletes something.
   */
  async workspaceOf(em: EntityManager, id: string): Promise<string | null> {
    const known = VisibleMemory.recall(em, orderWorkspaceFact(id));
    if (known !== undefined) return known;
    const row = await queryOne<{ workspace_id: string }>(
      em,
      'SELECT workspace_id FROM "order" WHERE id = $1',
      [id],
    );
    if (row) rememberOrderWorkspace(em, id, row.workspace_id);
    return row?.workspace_id ?? null;
  }

  /** The order's workspace and number, or undefined when it is gone. */
  async numbered(
    em: EntityManager,
    id: string,
  ): Promise<{ workspaceId: string; orderNumber: string | null } | undefined> {
    const row = await queryOne<{ workspace_id: string; order_number: string | null }>(
      em,
      'SELECT workspace_id, order_number FROM "order" WHERE id = $1',
      [id],
    );
    return row && { workspaceId: row.workspace_id, orderNumber: row.order_number };
  }

  /** Whether an order of the workspace has this number. */
  async numberTaken(em: EntityManager, workspaceId: string, orderNumber: string): Promise<boolean> {
    const rows = await query(
      em,
      'SELECT 1 FROM "order" WHERE workspace_id = $1 AND order_number = $2 LIMIT 1',
      [workspaceId, orderNumber],
    );
    return rows.length > 0;
  }

  /**
   * The numbers among these (workspace, number) pairs an order of the workspace already has,
   * in one statement: `numberTaken` for a batch of new orders. Keys as `orderNumberKey`.
   */
  async numbersTaken(
    em: EntityManager,
    wanted: ReadonlyArray<{ workspaceId: string; orderNumber: string }>,
  ): Promise<Set<string>> {
    if (wanted.length === 0) return new Set();
    const rows = await query<{ workspace_id: string; order_number: string }>(
      em,
      `SELECT DISTINCT o.workspace_id, o.order_number
         FROM "order" o
         JOIN unnest($1::uuid[], $2::text[]) AS w(workspace_id, order_number)
           ON o.workspace_id = w.workspace_id AND o.order_number = w.order_number`,
      [wanted.map((w) => w.workspaceId), wanted.map((w) => w.orderNumber)],
    );
    return new Set(rows.map((r) => orderNumberKey(r.workspace_id, r.order_number)));
  }

  /**
   * Whether the workspace has an order from this integration with this store id. Takes a
   * transaction lock on the triple first, so two posts of one order cannot both find none.
   */
  async syncIdTaken(
    em: EntityManager,
    workspaceId: string,
    integration: string | null,
    syncId: string,
  ): Promise<boolean> {
    await lockForTransaction(em, orderSyncIdLockKey(workspaceId, integration, syncId));
    const rows = await query(
      em,
      `SELECT 1 FROM "order" WHERE workspace_id = $1 AND external_source_sync_id = $2
          AND external_source_integration IS NOT DISTINCT FROM $3 LIMIT 1`,
      [workspaceId, syncId, integration],
    );
    return rows.length > 0;
  }

  /**
   * `syncIdTaken` for a batch of new orders: every triple locked in one statement (the same
   * keys, in key order), the taken ones read in one. Keys as `orderSyncIdKey`.
   */
  async syncIdsTaken(
    em: EntityManager,
    wanted: ReadonlyArray<{ workspaceId: string; integration: string | null; syncId: string }>,
  ): Promise<Set<string>> {
    if (wanted.length === 0) return new Set();
    await lockAllForTransaction(
      em,
      wanted.map((w) => orderSyncIdLockKey(w.workspaceId, w.integration, w.syncId)),
    );
    const rows = await query<{ workspace_id: string; integration: string | null; sync_id: string }>(
      em,
      `SELECT DISTINCT o.workspace_id, o.external_source_integration AS integration,
              o.external_source_sync_id AS sync_id
         FROM "order" o
         JOIN unnest($1::uuid[], $2::text[], $3::text[]) AS w(workspace_id, integration, sync_id)
           ON o.workspace_id = w.workspace_id AND o.external_source_sync_id = w.sync_id
          AND o.external_source_integration IS NOT DISTINCT FROM w.integration`,
      [
        wanted.map((w) => w.workspaceId),
        wanted.map((w) => w.integration),
        wanted.map((w) => w.syncId),
      ],
    );
    return new Set(rows.map((r) => orderSyncIdKey(r.workspace_id, r.integration, r.sync_id)));
  }

  /**
   * The shipments an order's deletion changes: the linked ones, and those carrying its items
   * (linked too, unless a PUT of the shipment dropped the link).
   */
  async shipmentsOf(em: EntityManager, id: string): Promise<ShipmentOfOrder[]> {
    const rows = await query<{ shipment_id: string; linked: boolean }>(
      em,
      `SELECT shipment_id, true AS linked FROM (${shipmentOrderSql.shipmentIdsOfOrder('$1')}) l
       UNION
       SELECT shipment_id, false
         FROM (${shipmentItemSql.shipmentIdsOfOrderItems(orderItemSql.idsOfOrder('$1'))}) c`,
      [id],
    );
    return rows.map((r) => ({ shipmentId: r.shipment_id, linked: r.linked }));
  }

  /** Deletes the order (its items and their shipment items go with it: FK cascades). */
  async remove(em: EntityManager, id: string): Promise<void> {
    await execute(em, 'DELETE FROM "order" WHERE id = $1', [id]);
  }

  /** Orders whose aggregates depend on a shipment: linked ones and those of its items. */
  async ofShipment(em: EntityManager, shipmentId: string): Promise<string[]> {
    const rows = await query<{ id: string }>(
      em,
      `SELECT order_id AS id FROM (${shipmentOrderSql.orderIdsOfShipment('$1')}) l
       UNION
       SELECT order_id FROM (${orderItemSql.orderIdsOf(shipmentItemSql.orderItemIdsOfShipment('$1'))}) c`,
      [shipmentId],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Recomputes the stored `fulfillmentStatus` and `shipmentsWithoutTrackingCount` of orders
   * from their items, shipment items and linked shipments (fulfillmentStatusOf in
   * fulfillment-status.ts is the rule). The orders are locked first (in id order, so writers
   * never deadlock on them); under READ COMMITTED the UPDATE that follows takes a fresh
   * snapshot, so it sees every change committed by a writer that held the lock before: the
   * last writer of an order always leaves it right. The UPDATE names the ids on the updated
   * table too: joined only through `f`, PostgreSQL hashed the whole table (a sequential scan
   * per refresh, 7 ms at 12 000 orders and growing with the table). An order the transaction locked already
   * (outside a savepoint, which could release it) is not locked again: an import writing an
   * order, its items and its parcels refreshes it after each, and locks it once. On a runner
   * of deferringRefresh the orders are only marked, for its caller to refresh once.
   */
  async refreshAggregates(em: EntityManager, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const deferred = deferredRefreshOf(em);
    if (deferred) {
      // Inside a write that refreshes them once at its end (deferringRefresh).
      for (const id of ids) deferred.add(id);
      return;
    }
    const tx = transactionOf(em);
    let held = tx && lockedOrders.get(tx);
    const unlocked = held ? ids.filter((id) => !held!.has(id)) : ids;
    if (unlocked.length > 0) {
      await execute(
        em,
        'SELECT id FROM "order" WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE',
        [unlocked],
      );
      if (tx && atTopLevel(tx)) {
        if (!held) lockedOrders.set(tx, (held = new Set()));
        for (const id of unlocked) held.add(id);
      }
    }
    await execute(
      em,
      `UPDATE "order" o
          SET fulfillment_status = f.status,
              shipments_without_tracking_count = f.untracked,
              updated_at = now()
         FROM (
           SELECT o2.id,
                  (SELECT CASE
                            WHEN COALESCE(sum(LEAST(x.fulfilled, x.qty)), 0) = 0 THEN 'not_fulfilled'
                            WHEN bool_and(x.fulfilled >= x.qty) THEN 'fulfilled'
                            ELSE 'partial'
                          END
                     FROM (${orderItemSql.quantities('o2.id', shipmentItemSql.shippedQuantity)}) x
                  ) AS status,
                  ${shipmentOrderSql.untrackedCountOfOrder('o2.id')} AS untracked
             FROM "order" o2
            WHERE o2.id = ANY($1::uuid[])
         ) f
        WHERE o.id = f.id AND o.id = ANY($1::uuid[])
          AND (o.fulfillment_status, o.shipments_without_tracking_count)
              IS DISTINCT FROM (f.status, f.untracked)`,
      [ids],
    );
  }

  /**
   * The orders among `ids` of these workspaces, with their workspace, in id order; locked
   * FOR UPDATE when `lock` (a batch).
   */
  async records(
    runner: SqlRunner,
    ids: readonly string[],
    workspaceIds: readonly string[],
    lock: boolean,
  ): Promise<Array<{ id: string; workspaceId: string }>> {
    const rows = await query<{ id: string; workspace_id: string }>(
      runner,
      `SELECT id, workspace_id FROM "order"
          WHERE id = ANY($1::uuid[]) AND workspace_id = ANY($2::uuid[])
          ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
      [ids, workspaceIds],
    );
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id }));
  }

  /**
   * Gives the orders among `ids` their workspace's status (workspace id -> status id), where
   * they have another; answers the ids it changed.
   */
  async assignStatus(
    em: EntityManager,
    ids: readonly string[],
    statusByWorkspace: ReadonlyMap<string, string>,
  ): Promise<string[]> {
    const rows = await query<{ id: string }>(
      em,
      `UPDATE "order" t SET order_status_id = m.status_id, updated_at = now()
           FROM (SELECT unnest($1::uuid[]) AS workspace_id, unnest($2::uuid[]) AS status_id) m
          WHERE t.workspace_id = m.workspace_id AND t.id = ANY($3::uuid[])
            AND t.order_status_id IS DISTINCT FROM m.status_id
          RETURNING t.id`,
      [[...statusByWorkspace.keys()], [...statusByWorkspace.values()], ids],
    );
    return rows.map((r) => r.id);
  }

  /** How many orders of the workspace have the status. */
  async countWithStatus(em: EntityManager, statusId: string, workspaceId: string): Promise<number> {
    const row = await queryOne<{ n: number }>(
      em,
      'SELECT count(*)::int AS n FROM "order" WHERE order_status_id = $1 AND workspace_id = $2',
      [statusId, workspaceId],
    );
    return row!.n;
  }

  /** Gives the workspace's orders of status `fromId` the status `toId`; answers how many. */
  async moveStatus(
    em: EntityManager,
    fromId: string,
    toId: string,
    workspaceId: string,
  ): Promise<number> {
    const row = await queryOne<{ n: number }>(
      em,
      `WITH moved AS (
         UPDATE "order" SET order_status_id = $1, updated_at = now()
          WHERE order_status_id = $2 AND workspace_id = $3 RETURNING 1)
       SELECT count(*)::int AS n FROM moved`,
      [toId, fromId, workspaceId],
    );
    return row!.n;
  }
}

/** An order number of a workspace, as `numbersTaken` answers it. */
export function orderNumberKey(workspaceId: string, orderNumber: string): string {
  return JSON.stringify([workspaceId, orderNumber]);
}

/** One store id of an integration in a workspace, as `syncIdsTaken` answers it. */
export function orderSyncIdKey(
  workspaceId: string,
  integration: string | null,
  syncId: string,
): string {
  return JSON.stringify([workspaceId, integration, syncId]);
}

/** The transaction lock of an order's store id: one key for the single and the batch check. */
function orderSyncIdLockKey(workspaceId: string, integration: string | null, syncId: string) {
  return `order:${workspaceId}:${integration ?? ''}:${syncId}`;
}
