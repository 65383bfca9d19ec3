import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import { orderSql } from '../orders/order-store';
import { orderItemSql } from '../order-items/order-item-store';
import { shipmentOrderSql } from '../shipments/shipment-records-store';

/**
 * Pieces of SQL over shipment items for other modules' statements (an order item's
 * `fulfilledQty`, an order's fulfilment). Arguments are SQL expressions.
 */
export const shipmentItemSql = {
  /** The quantity of the order item in shipments: an integer. */
  shippedQuantity: (orderItemId: string): string =>
    `(SELECT COALESCE(sum(si.qty), 0)::int FROM shipment_item si WHERE si.order_item_id = ${orderItemId})`,

  /** The order items a shipment carries: a subquery answering `order_item_id`. */
  orderItemIdsOfShipment: (shipmentId: string): string =>
    `SELECT order_item_id FROM shipment_item WHERE shipment_id = ${shipmentId}`,

  /** The shipments carrying these order items (a subquery of ids): answers `shipment_id`. */
  shipmentIdsOfOrderItems: (orderItemIds: string): string =>
    `SELECT shipment_id FROM shipment_item WHERE order_item_id IN (${orderItemIds})`,
};

/** A shipment item as a PUT finds it. */
export interface StoredShipmentItem {
  orderItemId: string;
  workspaceId: string;
  qty: number;
  orderId: string;
}

/** What a write of a shipment item changed: its shipment and order, and their link. */
export interface WrittenShipmentItem {
  shipmentId: string;
  orderItemId: string;
  orderId: string;
  orderNumber: string | null;
  /** The shipment is linked to the order and carries its number. */
  linked: boolean;
}

/** The name of the new rows in the statement that inserts them (ShipmentItemStore.insertMany). */
export const NEW_SHIPMENT_ITEMS = 'new_shipment_item';

/** What an item's write reads of it (writtenSelect, `w_` columns). */
interface WrittenRow {
  w_id: string;
  w_shipment_id: string;
  w_order_item_id: string;
  w_order_id: string;
  w_order_number: string | null;
  w_linked: boolean;
}

/**
 * The `w_` columns of WrittenRow over an item `t`, with writtenJoins (built on use: the SQL
 * helpers are other modules').
 */
const writtenSelect = () => `t.id AS w_id, t.shipment_id AS w_shipment_id,
  t.order_item_id AS w_order_item_id, w_order.id AS w_order_id, w_number.n AS w_order_number,
  ${shipmentOrderSql.carriesOrder('t.shipment_id', 'w_order.id', 'w_number.n')} AS w_linked`;

/** The item's order and the order's number, beside `t`. */
const writtenJoins =
  () => `CROSS JOIN LATERAL (SELECT ${orderItemSql.orderOf('t.order_item_id')} AS id) w_order
  CROSS JOIN LATERAL (SELECT ${orderSql.orderNumber('w_order.id')} AS n) w_number`;

function writtenOf(row: WrittenRow): WrittenShipmentItem {
  return {
    shipmentId: row.w_shipment_id,
    orderItemId: row.w_order_item_id,
    orderId: row.w_order_id,
    orderNumber: row.w_order_number,
    linked: row.w_linked,
  };
}

/** A shipment item to insert (insertMany): its columns. */
export interface NewShipmentItem {
  id: string;
  workspaceId: string;
  shipmentId: string;
  orderItemId: string;
  qty: number;
  externalSourceSyncId: string | null;
  fulfillmentSyncId: string | null;
  externalSourceIntegrationId: string | null;
  fulfillmentIntegrationId: string | null;
}

/** Where a shipment item being deleted belongs. */
export interface RemovedShipmentItem {
  orderId: string;
  workspaceId: string;
  shipmentId: string;
}

/**
 * The shipment_item table's SQL: prepared statements on the caller's transaction, typed rows.
 */
@Injectable()
export class ShipmentItemStore {
  /** The shipment of each of these items (those that exist). */
  async shipmentsOf(em: EntityManager, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await query<{ id: string; shipment_id: string }>(
      em,
      'SELECT id, shipment_id FROM shipment_item WHERE id = ANY($1::uuid[])',
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.shipment_id]));
  }

  /**
   * Deletes the items of a shipment but `keptIds` (a PUT's `shipmentItems`), answering what
   * each was (its workspace, for its notes; its order, for the order's aggregates).
   */
  async removeLeftOut(
    em: EntityManager,
    shipmentId: string,
    keptIds: readonly string[],
  ): Promise<Array<{ id: string; workspace_id: string; order_id: string }>> {
    return query<{ id: string; workspace_id: string; order_id: string }>(
      em,
      `DELETE FROM shipment_item si
        WHERE si.shipment_id = $1 AND NOT (si.id = ANY($2::uuid[]))
        RETURNING si.id, si.workspace_id, ${orderItemSql.orderOf('si.order_item_id')} AS order_id`,
      [shipmentId, keptIds],
    );
  }

  async stored(em: EntityManager, id: string): Promise<StoredShipmentItem> {
    const row = await queryOne<{
      order_item_id: string;
      workspace_id: string;
      qty: number;
      order_id: string;
    }>(
      em,
      `SELECT si.order_item_id, si.workspace_id, si.qty,
              ${orderItemSql.orderOf('si.order_item_id')} AS order_id
         FROM shipment_item si WHERE si.id = $1`,
      [id],
    );
    return {
      orderItemId: row!.order_item_id,
      workspaceId: row!.workspace_id,
      qty: row!.qty,
      orderId: row!.order_id,
    };
  }

  /** How much of the order item the other shipment items (all but `exceptId`) carry. */
  async shippedByOthers(
    em: EntityManager,
    orderItemId: string,
    exceptId: string | null,
  ): Promise<number> {
    const row = await queryOne<{ shipped: number }>(
      em,
      `SELECT COALESCE(sum(qty), 0)::int AS shipped FROM shipment_item
        WHERE order_item_id = $1 AND id IS DISTINCT FROM $2::uuid`,
      [orderItemId, exceptId],
    );
    return row!.shipped;
  }

  /** How much of each order item the shipment items carry (0 for those none carries). */
  async shippedOfMany(
    em: EntityManager,
    orderItemIds: readonly string[],
  ): Promise<Map<string, number>> {
    const ids = [...new Set(orderItemIds)];
    if (ids.length === 0) return new Map();
    const rows = await query<{ order_item_id: string; shipped: number }>(
      em,
      `SELECT order_item_id, COALESCE(sum(qty), 0)::int AS shipped FROM shipment_item
        WHERE order_item_id = ANY($1::uuid[]) GROUP BY order_item_id`,
      [ids],
    );
    const out = new Map<string, number>(ids.map((id) => [id, 0]));
    for (const row of rows) out.set(row.order_item_id, row.shipped);
    return out;
  }

  /**
   * New items (their ids chosen by the caller) in one statement, in the order given, answering
   * what `writtenMany` reads of each (in that order) and, in the same statement, `read`: a
   * select list over the new rows as `t` (RecordChangeEvents.newRecordsRead over
   * NEW_SHIPMENT_ITEMS), the events' snapshots. One round trip instead of three.
   */
  async insertMany(
    em: EntityManager,
    items: readonly NewShipmentItem[],
    read: { select: string; from: string },
  ): Promise<Array<{ written: WrittenShipmentItem; row: Record<string, unknown> }>> {
    if (items.length === 0) return [];
    const rows = await query<WrittenRow & Record<string, unknown>>(
      em,
      `WITH "${NEW_SHIPMENT_ITEMS}" AS (
         INSERT INTO shipment_item (id, workspace_id, shipment_id, order_item_id, qty,
                external_source_sync_id, fulfillment_sync_id, external_source_integration_id,
                fulfillment_integration_id)
         SELECT a, b, c, d, e, f, g, h, i
           FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::int[], $6::text[],
                       $7::text[], $8::uuid[], $9::uuid[]) WITH ORDINALITY AS x(a, b, c, d, e, f, g, h, i, n)
          ORDER BY n
         RETURNING *)
       SELECT ${read.select}, ${writtenSelect()} ${read.from} ${writtenJoins()}`,
      [
        items.map((i) => i.id),
        items.map((i) => i.workspaceId),
        items.map((i) => i.shipmentId),
        items.map((i) => i.orderItemId),
        items.map((i) => i.qty),
        items.map((i) => i.externalSourceSyncId),
        items.map((i) => i.fulfillmentSyncId),
        items.map((i) => i.externalSourceIntegrationId),
        items.map((i) => i.fulfillmentIntegrationId),
      ],
    );
    const byId = new Map(rows.map((r) => [r.w_id, r]));
    return items.map((item) => {
      const row = byId.get(item.id)!;
      return { written: writtenOf(row), row };
    });
  }

  /** `written` for several items in one statement, in the order of `ids`. */
  async writtenMany(em: EntityManager, ids: readonly string[]): Promise<WrittenShipmentItem[]> {
    if (ids.length === 0) return [];
    const rows = await query<WrittenRow>(
      em,
      `SELECT ${writtenSelect()} FROM shipment_item t ${writtenJoins()} WHERE t.id = ANY($1::uuid[])`,
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.w_id, r]));
    return ids.map((id) => writtenOf(byId.get(id)!));
  }

  /** The item's shipment and order after a write, and whether they are linked. */
  async written(em: EntityManager, id: string): Promise<WrittenShipmentItem> {
    const [item] = await this.writtenMany(em, [id]);
    return item;
  }

  /** Where the item belongs, before its deletion; undefined when it is gone. */
  async removal(em: EntityManager, id: string): Promise<RemovedShipmentItem | undefined> {
    const row = await queryOne<{ order_id: string; workspace_id: string; shipment_id: string }>(
      em,
      `SELECT ${orderItemSql.orderOf('si.order_item_id')} AS order_id, si.workspace_id, si.shipment_id
         FROM shipment_item si WHERE si.id = $1`,
      [id],
    );
    return row
      ? { orderId: row.order_id, workspaceId: row.workspace_id, shipmentId: row.shipment_id }
      : undefined;
  }

  async remove(em: EntityManager, id: string): Promise<void> {
    await execute(em, 'DELETE FROM shipment_item WHERE id = $1', [id]);
  }

  /**
   * Moves the items of shipments to another (a merge). They keep their ids and quantities:
   * the order items they ship are unchanged, so what is left to fulfil is too.
   */
  async moveToShipment(
    em: EntityManager,
    targetId: string,
    fromIds: readonly string[],
  ): Promise<void> {
    await execute(
      em,
      `UPDATE shipment_item SET shipment_id = $1, updated_at = now() WHERE shipment_id = ANY($2::uuid[])`,
      [targetId, fromIds],
    );
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
      `SELECT id, workspace_id FROM shipment_item
          WHERE id = ANY($1::uuid[]) AND workspace_id = ANY($2::uuid[])
          ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
      [ids, workspaceIds],
    );
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id }));
  }
}
