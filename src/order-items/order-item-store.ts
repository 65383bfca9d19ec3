import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { lockAllForTransaction, lockForTransaction } from '../database/advisory-lock';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import { VisibleMemory } from '../hydra/collection/visible-memory';
import { shipmentItemSql } from '../shipment-items/shipment-item-store';

/**
 * Pieces of SQL over order items for other modules' statements (an order's fulfilment, a
 * shipment item's order). Arguments are SQL expressions.
 */
export const orderItemSql = {
  /** The order of an order item: a uuid. */
  orderOf: (orderItemId: string): string =>
    `(SELECT order_id FROM order_item WHERE id = ${orderItemId})`,

  /** The ids of an order's items: a subquery. */
  idsOfOrder: (orderId: string): string => `SELECT id FROM order_item WHERE order_id = ${orderId}`,

  /** The orders of these order items (a subquery of ids): a subquery answering `order_id`. */
  orderIdsOf: (orderItemIds: string): string =>
    `SELECT order_id FROM order_item WHERE id IN (${orderItemIds})`,

  /**
   * Each item of an order with its ordered quantity and `fulfilled`, an expression over the
   * item's id (`fulfilled('oi.id')`): a subquery answering `qty` and `fulfilled`.
   */
  quantities: (orderId: string, fulfilled: (orderItemId: string) => string): string =>
    `SELECT oi.qty, ${fulfilled('oi.id')} AS fulfilled FROM order_item oi WHERE oi.order_id = ${orderId}`,
};

/** What VisibleMemory remembers a new order item's order under. */
const itemOrderFact = (id: string) => `order_item.order/${id}`;

/**
 * A new order item's order, for the parcels its transaction writes next (ordersOf): an item
 * never changes order (set on POST only).
 */
export function rememberItemOrder(em: EntityManager, id: string, orderId: string): void {
  VisibleMemory.note(em, itemOrderFact(id), orderId);
}

/** Where an order item being deleted belongs, and the shipments carrying it. */
export interface RemovedOrderItem {
  orderId: string;
  workspaceId: string;
  shipmentIds: string[];
}

/** The order_item table's SQL: prepared statements on the caller's transaction, typed rows. */
@Injectable()
export class OrderItemStore {
  /**
   * The orders of these order items and of the items the shipment `shipmentId` carries (none
   * when null), without repeats.
   */
  async ordersOf(
    em: EntityManager,
    orderItemIds: readonly string[],
    shipmentId: string | null,
  ): Promise<string[]> {
    // New items of this transaction's (rememberItemOrder) name their orders without a read.
    const known = orderItemIds.map((id) => VisibleMemory.recall(em, itemOrderFact(id)));
    if (shipmentId === null && known.every((id) => id !== undefined))
      return [...new Set(known as string[])];
    const rows = await query<{ order_id: string }>(
      em,
      // A UNION, not an OR: each side uses its index (the OR scanned all order items).
      `SELECT oi.order_id FROM order_item oi WHERE oi.id = ANY($2::uuid[])
       UNION
       SELECT oi.order_id FROM order_item oi
        WHERE oi.id IN (${shipmentItemSql.orderItemIdsOfShipment('$1')})`,
      [shipmentId, orderItemIds],
    );
    return rows.map((r) => r.order_id);
  }

  async orderOf(em: EntityManager, id: string): Promise<string> {
    const row = await queryOne<{ order_id: string }>(
      em,
      'SELECT order_id FROM order_item WHERE id = $1',
      [id],
    );
    return row!.order_id;
  }

  /** How much of the item its shipment items carry. */
  async shipped(em: EntityManager, id: string): Promise<number> {
    const row = await queryOne<{ shipped: number }>(
      em,
      `SELECT ${shipmentItemSql.shippedQuantity('$1::uuid')} AS shipped`,
      [id],
    );
    return row!.shipped;
  }

  /**
   * The item's workspace and ordered quantity, locked FOR UPDATE: every quantity check of
   * its shipment items waits for the others (they cannot together exceed it). Undefined when
   * there is no such item.
   */
  async lockForShipping(
    em: EntityManager,
    id: string,
  ): Promise<{ workspaceId: string; qty: number } | undefined> {
    const row = await queryOne<{ workspace_id: string; qty: number }>(
      em,
      'SELECT workspace_id, qty FROM order_item WHERE id = $1 FOR UPDATE',
      [id],
    );
    return row ? { workspaceId: row.workspace_id, qty: row.qty } : undefined;
  }

  /**
   * `lockForShipping` for several order items in one statement (a shipment's new items), locked
   * in id order; those that exist, by id.
   */
  async lockManyForShipping(
    em: EntityManager,
    ids: readonly string[],
  ): Promise<Map<string, { workspaceId: string; qty: number }>> {
    if (ids.length === 0) return new Map();
    const rows = await query<{ id: string; workspace_id: string; qty: number }>(
      em,
      'SELECT id, workspace_id, qty FROM order_item WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE',
      [[...new Set(ids)]],
    );
    return new Map(rows.map((r) => [r.id, { workspaceId: r.workspace_id, qty: r.qty }]));
  }

  /**
   * Whether the workspace has an item from this integration with this store id. Takes a
   * transaction lock on the triple first, so two posts of one item cannot both find none.
   */
  async syncIdTaken(
    em: EntityManager,
    workspaceId: string,
    integration: string | null,
    syncId: string,
  ): Promise<boolean> {
    await lockForTransaction(em, syncIdLockKey(workspaceId, integration, syncId));
    const rows = await query(
      em,
      `SELECT 1 FROM order_item WHERE workspace_id = $1 AND external_source_sync_id = $2
          AND external_source_integration IS NOT DISTINCT FROM $3 LIMIT 1`,
      [workspaceId, syncId, integration],
    );
    return rows.length > 0;
  }

  /**
   * `syncIdTaken` for several store ids in one statement (their locks in another): the keys
   * (`syncIdKey`) of those the workspace already has.
   */
  async syncIdsTaken(
    em: EntityManager,
    wanted: ReadonlyArray<{ workspaceId: string; integration: string | null; syncId: string }>,
  ): Promise<Set<string>> {
    if (wanted.length === 0) return new Set();
    await lockAllForTransaction(
      em,
      wanted.map((w) => syncIdLockKey(w.workspaceId, w.integration, w.syncId)),
    );
    const rows = await query<{ workspace_id: string; integration: string | null; sync_id: string }>(
      em,
      `SELECT DISTINCT oi.workspace_id, oi.external_source_integration AS integration,
              oi.external_source_sync_id AS sync_id
         FROM order_item oi
         JOIN unnest($1::uuid[], $2::text[], $3::text[]) AS w(workspace_id, integration, sync_id)
           ON oi.workspace_id = w.workspace_id AND oi.external_source_sync_id = w.sync_id
          AND oi.external_source_integration IS NOT DISTINCT FROM w.integration`,
      [
        wanted.map((w) => w.workspaceId),
        wanted.map((w) => w.integration),
        wanted.map((w) => w.syncId),
      ],
    );
    return new Set(rows.map((r) => syncIdKey(r.workspace_id, r.integration, r.sync_id)));
  }

  async removal(em: EntityManager, id: string): Promise<RemovedOrderItem | undefined> {
    const row = await queryOne<{ order_id: string; workspace_id: string; shipment_ids: string[] }>(
      em,
      `SELECT order_id, workspace_id,
              ARRAY(SELECT DISTINCT shipment_id
                      FROM (${shipmentItemSql.shipmentIdsOfOrderItems('$1')}) c) AS shipment_ids
         FROM order_item WHERE id = $1`,
      [id],
    );
    return row
      ? { orderId: row.order_id, workspaceId: row.workspace_id, shipmentIds: row.shipment_ids }
      : undefined;
  }

  async remove(em: EntityManager, id: string): Promise<void> {
    await execute(em, 'DELETE FROM order_item WHERE id = $1', [id]);
  }

  /**
   * The items among `ids` of these workspaces, with their workspace, in id order; locked
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
      `SELECT id, workspace_id FROM order_item
          WHERE id = ANY($1::uuid[]) AND workspace_id = ANY($2::uuid[])
          ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
      [ids, workspaceIds],
    );
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id }));
  }
}

/** One store id of an integration in a workspace, as `syncIdsTaken` answers it. */
export function syncIdKey(workspaceId: string, integration: string | null, syncId: string): string {
  return JSON.stringify([workspaceId, integration, syncId]);
}

/** The transaction lock of a store id: one key for the single and the batch check alike. */
function syncIdLockKey(workspaceId: string, integration: string | null, syncId: string): string {
  return `order_item:${workspaceId}:${integration ?? ''}:${syncId}`;
}
