import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { VisibleMemory } from '../hydra/collection/visible-memory';
import { query } from '../database/query';

/**
 * Pieces of SQL over shipments and their order links (`shipment`, `shipment_order`) for the
 * statements of the order records modules (orders, order items, shipment items), so those
 * stay one round trip while the tables are named here only. Arguments are SQL expressions
 * (a column of the caller's statement, a placeholder); aliases inside do not leak out.
 */
export const shipmentOrderSql = {
  /** The ids of the orders linked to a shipment: a subquery. */
  orderIdsOfShipment: (shipmentId: string): string =>
    `SELECT order_id FROM shipment_order WHERE shipment_id = ${shipmentId}`,

  /** The ids of the shipments linked to an order: a subquery answering `shipment_id`. */
  shipmentIdsOfOrder: (orderId: string): string =>
    `SELECT shipment_id FROM shipment_order WHERE order_id = ${orderId}`,

  /** How many shipments linked to the order have no tracking number: an integer. */
  untrackedCountOfOrder: (orderId: string): string =>
    `(SELECT count(*)::int FROM shipment_order so JOIN shipment s ON s.id = so.shipment_id
       WHERE so.order_id = ${orderId} AND s.tracking_number IS NULL)`,

  /**
   * Whether the shipment is linked to the order and carries its number (when it has one): a
   * boolean.
   */
  carriesOrder: (shipmentId: string, orderId: string, orderNumber: string): string =>
    `(EXISTS (SELECT 1 FROM shipment_order so
               WHERE so.shipment_id = ${shipmentId} AND so.order_id = ${orderId})
      AND (${orderNumber} IS NULL OR EXISTS (SELECT 1 FROM shipment s
               WHERE s.id = ${shipmentId} AND s.order_numbers @> ARRAY[${orderNumber}])))`,
};

/** What VisibleMemory remembers a shipment's workspace under. */
const shipmentWorkspaceFact = (id: string) => `shipment.workspace/${id}`;

/** A new shipment's workspace, for the items its transaction writes next (workspacesOf). */
export function rememberShipmentWorkspace(em: EntityManager, id: string, workspaceId: string) {
  VisibleMemory.note(em, shipmentWorkspaceFact(id), workspaceId);
}

/** The shipment's workspace, if the transaction remembers it (without a statement). */
export function rememberedShipmentWorkspace(em: EntityManager, id: string): string | undefined {
  return VisibleMemory.recall(em, shipmentWorkspaceFact(id));
}

/**
 * What the order records modules read of shipments through statements of their own: the
 * shipments an order links or names. Prepared statements on the caller's transaction.
 */
@Injectable()
export class ShipmentRecordsStore {
  /**
   * The workspace of each of these shipments that exists (id -> workspace id). A shipment
   * never changes workspace: a transaction that remembers its references (an import's parcel
   * items name their parcel) reads each once (VisibleMemory), until it deletes something.
   */
  async workspacesOf(em: EntityManager, ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const unknown: string[] = [];
    for (const id of ids) {
      const known = VisibleMemory.recall(em, shipmentWorkspaceFact(id));
      if (known === undefined) unknown.push(id);
      else out.set(id, known);
    }
    if (unknown.length === 0) return out;
    const rows = await query<{ id: string; workspace_id: string }>(
      em,
      'SELECT id, workspace_id FROM shipment WHERE id = ANY($1::uuid[])',
      [unknown],
    );
    for (const r of rows) {
      rememberShipmentWorkspace(em, r.id, r.workspace_id);
      out.set(r.id, r.workspace_id);
    }
    return out;
  }

  /** The shipments linked to the order. */
  async linkedToOrder(em: EntityManager, orderId: string): Promise<string[]> {
    const rows = await query<{ shipment_id: string }>(
      em,
      shipmentOrderSql.shipmentIdsOfOrder('$1'),
      [orderId],
    );
    return rows.map((r) => r.shipment_id);
  }

  /** The workspace's shipments whose `orderNumbers` has this number. */
  async carryingOrderNumber(
    em: EntityManager,
    workspaceId: string,
    orderNumber: string,
  ): Promise<string[]> {
    const rows = await query<{ id: string }>(
      em,
      'SELECT id FROM shipment WHERE workspace_id = $1 AND order_numbers @> ARRAY[$2]::text[]',
      [workspaceId, orderNumber],
    );
    return rows.map((r) => r.id);
  }

  /**
   * `carryingOrderNumber` for several (workspace, number) pairs in one statement: by pair
   * index, the shipments carrying that number (pairs none carry are left out).
   */
  async carryingOrderNumbers(
    em: EntityManager,
    pairs: ReadonlyArray<{ workspaceId: string; orderNumber: string }>,
  ): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>();
    if (pairs.length === 0) return out;
    const rows = await query<{ n: number; id: string }>(
      em,
      `SELECT w.n::int AS n, s.id
         FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS w(workspace_id, order_number, n)
         JOIN shipment s ON s.workspace_id = w.workspace_id
          AND s.order_numbers @> ARRAY[w.order_number]::text[]`,
      [pairs.map((p) => p.workspaceId), pairs.map((p) => p.orderNumber)],
    );
    for (const r of rows) {
      const i = r.n - 1;
      out.set(i, [...(out.get(i) ?? []), r.id]);
    }
    return out;
  }
}
