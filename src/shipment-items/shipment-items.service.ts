import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  RecordChangeEvents,
  type RecordsBefore,
  type RecordSnapshot,
} from '../events/record-change-events';
import type { NestedElement, ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { ValidationError, Violation, ViolationCodes } from '../common/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { removeNotesOf } from '../notes/record-notes';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { refreshOrderAggregates } from '../orders/order-aggregates';
import { Order } from '../orders/order.entity';
import { ShipmentEvents, type ShipmentsBefore } from '../shipments/shipment-events';
import { linkShipmentsToOrder } from '../shipments/shipment-orders';
import { Shipment } from '../shipments/shipment.entity';
import { ShipmentsService } from '../shipments/shipments.service';
import type { Workspace } from '../workspaces/workspace.entity';
import { availableQuantity } from './shipment-item-quantity';
import { ShipmentItem } from './shipment-item.entity';
import type { OrderItem } from '../order-items/order-item.entity';
import { blankToNull } from '../shipments/text-input';
import { checkWorkflowReferences } from '../shipments/workflow-references';

interface Stored {
  orderItemId: string;
  workspaceId: string;
  qty: number;
  orderId: string;
}

/**
 * Shipment item rules. On POST `shipment` may be an object: it is created
 * first through the shipment rules (carrier identification included), in
 * the same transaction. The order item must belong to the shipment's
 * workspace, and the quantity must fit what is left of it: checked with the
 * order item row locked, so parallel requests cannot together exceed it.
 * The shipment is linked to the item's order, and the order's fulfilment is
 * recomputed. The shipment and the orders this changes (items, links,
 * fulfilment) get `shipment.updated` / `order.updated` with
 * `cause: "shipment_item"`, unless the item is written by its shipment's own
 * POST or PUT (whose events tell it).
 */
@Injectable()
export class ShipmentItemsService implements ResourceHooks<ShipmentItem>, OnModuleInit {
  private readonly stored = new WeakMap<ShipmentItem, Stored>();
  private readonly before = new WeakMap<ShipmentItem, RecordSnapshot | null>();
  /** A create's shipment as it was before the item (its `shipmentItems` change). */
  private readonly shipmentBefore = new WeakMap<ShipmentItem, ShipmentsBefore>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly writer: ResourceWriter,
    private readonly shipments: ShipmentsService,
    private readonly changes: RecordChangeEvents,
    private readonly shipmentEvents: ShipmentEvents,
  ) {}

  onModuleInit(): void {
    this.shipments.writeNestedItemsWith((shipmentId, elements, ctx) =>
      this.writeNested(shipmentId, elements, ctx),
    );
  }

  /**
   * The items a shipment's POST or PUT gives as objects: `{orderItem, qty}` creates one on the
   * shipment, `{@id, ...}` changes that item (already checked to be the shipment's), each
   * through the shipment item rules, in the shipment's transaction. Violations name the
   * element (`shipmentItems[1].qty`).
   */
  private async writeNested(
    shipmentId: string,
    elements: NestedElement[],
    ctx: WriteContext,
  ): Promise<void> {
    const resource = this.registry.get(ShipmentItem);
    for (const element of elements) {
      const path = `shipmentItems[${element.index}]`;
      if (element.id) {
        const { shipment: _ignored, ...changes } = element.value;
        await this.writer.replaceWithin(
          ctx.em,
          resource,
          element.id,
          changes,
          ctx.principal,
          this,
          path,
          ctx.request,
        );
      } else {
        await this.writer.createWithin(
          ctx.em,
          resource,
          { ...element.value, shipment: `/shipments/${shipmentId}` },
          ctx.principal,
          this,
          path,
          ctx.request,
        );
      }
    }
  }

  async prepare(item: ShipmentItem, ctx: WriteContext): Promise<void> {
    const { em } = ctx;
    if (ctx.operation === 'put') {
      const [row] = await em.query(
        `SELECT si.order_item_id, si.workspace_id, si.qty, oi.order_id
           FROM shipment_item si JOIN order_item oi ON oi.id = si.order_item_id
          WHERE si.id = $1`,
        [item.id],
      );
      this.stored.set(item, {
        orderItemId: row.order_item_id,
        workspaceId: row.workspace_id,
        qty: row.qty,
        orderId: row.order_id,
      });
      this.before.set(item, await this.changes.snapshot(em, ShipmentItem, item.id));
      // A PUT that leaves the order item out keeps it (an explicit null stays a violation).
      if (!Object.prototype.hasOwnProperty.call(ctx.body, 'orderItem')) {
        item.orderItem = { id: row.order_item_id } as OrderItem;
      }
    } else {
      const shipmentInput = ctx.nested.shipment;
      if (shipmentInput) {
        const id = await this.writer.createWithin(
          em,
          this.registry.get(Shipment),
          shipmentInput,
          ctx.principal,
          this.shipments,
          'shipment',
          ctx.request,
        );
        item.shipment = { id } as Shipment;
      }
      if (item.shipment?.id) {
        const [row] = await em.query('SELECT workspace_id FROM shipment WHERE id = $1', [
          item.shipment.id,
        ]);
        item.workspace = { id: row.workspace_id } as Workspace;
        this.shipmentBefore.set(item, await this.shipmentEvents.watch(em, [item.shipment.id]));
      }
    }
    item.qty ??= 0;
    item.externalSourceSyncId = blankToNull(item.externalSourceSyncId);
    item.fulfillmentSyncId = blankToNull(item.fulfillmentSyncId);
  }

  async validate(item: ShipmentItem, ctx: WriteContext): Promise<Violation[]> {
    const { em } = ctx;
    const workspaceId = this.stored.get(item)?.workspaceId ?? item.workspace.id;
    const violations =
      ctx.operation === 'post'
        ? await checkWorkflowReferences(em, workspaceId, item, 'shipment item')
        : [];
    // The lock serialises every quantity check of this order item.
    const [orderItem] = await em.query(
      'SELECT id, workspace_id, qty FROM order_item WHERE id = $1 FOR UPDATE',
      [item.orderItem.id],
    );
    if (!orderItem || orderItem.workspace_id !== workspaceId) {
      return [
        ...violations,
        {
          propertyPath: 'orderItem',
          message: 'The order item must belong to the workspace of the shipment.',
          code: ViolationCodes.invalid,
        },
      ];
    }
    if (violations.length) return violations;
    const [others] = await em.query(
      `SELECT COALESCE(sum(qty), 0)::int AS shipped FROM shipment_item
        WHERE order_item_id = $1 AND id IS DISTINCT FROM $2`,
      [orderItem.id, item.id ?? null],
    );
    const available = availableQuantity(orderItem.qty, others.shipped);
    if (item.qty > available) {
      throw ValidationError.of(
        'qty',
        `This value should be less than or equal to ${available}, the quantity of the order item left to fulfil.`,
        ViolationCodes.lessThanOrEqual,
      );
    }
    return [];
  }

  async afterWrite(item: ShipmentItem, ctx: WriteContext): Promise<void> {
    const { em } = ctx;
    const [row]: Array<{
      shipment_id: string;
      order_item_id: string;
      order_id: string;
      order_number: string | null;
      linked: boolean;
    }> = await em.query(
      `SELECT si.shipment_id, si.order_item_id, o.id AS order_id, o.order_number,
              EXISTS (SELECT 1 FROM shipment_order so
                       WHERE so.shipment_id = si.shipment_id AND so.order_id = o.id)
              AND (o.order_number IS NULL OR s.order_numbers @> ARRAY[o.order_number]) AS linked
         FROM shipment_item si
         JOIN shipment s ON s.id = si.shipment_id
         JOIN order_item oi ON oi.id = si.order_item_id
         JOIN "order" o ON o.id = oi.order_id
        WHERE si.id = $1`,
      [item.id],
    );
    const created = ctx.operation === 'post';
    const previous = this.stored.get(item);
    // What else the write changes, as it was: a create's shipment (its items; read before
    // the item's INSERT) or the shipment it links, and the orders whose links or fulfilment
    // move. The orders' stored fulfilment changes only below (refreshOrderAggregates).
    const shipmentBefore = created
      ? (this.shipmentBefore.get(item) ?? new Map())
      : row.linked
        ? new Map()
        : await this.shipmentEvents.watch(em, [row.shipment_id]);
    const ordersChange =
      !previous ||
      !row.linked ||
      previous.orderItemId !== row.order_item_id ||
      previous.qty !== item.qty;
    const ordersBefore: RecordsBefore = ordersChange
      ? await this.changes.watch(em, 'order', Order, [row.order_id, previous?.orderId])
      : new Map();
    // A shipment carrying an order's items belongs to that order.
    if (!row.linked) {
      await linkShipmentsToOrder(em, { id: row.order_id, orderNumber: row.order_number }, [
        row.shipment_id,
      ]);
    }
    await refreshOrderAggregates(em, [row.order_id, previous?.orderId]);
    if (created) {
      await this.changes.created(em, 'shipment_item', ShipmentItem, item.id);
    } else {
      const before = this.before.get(item) ?? null;
      await this.changes.updated(em, 'shipment_item', ShipmentItem, item.id, before);
    }
    await this.shipmentEvents.indirectlyUpdated(em, shipmentBefore, 'shipment_item');
    await this.changes.indirectlyUpdated(em, 'order', Order, ordersBefore, 'shipment_item');
  }

  /**
   * Deletes the item and the notes on it (removeNotesOf), then recomputes its order's
   * fulfilment; its shipment (`shipmentItems`) and order get their updates with
   * `cause: "shipment_item"`. Every delete path of a shipment item (DELETE,
   * delete_records_batch) runs this.
   */
  async remove(item: ShipmentItem, ctx: WriteContext): Promise<void> {
    const { em } = ctx;
    const before = await this.changes.snapshot(em, ShipmentItem, item.id);
    const [row]: Array<{ order_id: string; workspace_id: string; shipment_id: string }> =
      await em.query(
        `SELECT oi.order_id, si.workspace_id, si.shipment_id FROM shipment_item si
           JOIN order_item oi ON oi.id = si.order_item_id
          WHERE si.id = $1`,
        [item.id],
      );
    const shipmentBefore = await this.shipmentEvents.watch(em, row ? [row.shipment_id] : []);
    const orderBefore = await this.changes.watch(em, 'order', Order, [row?.order_id]);
    if (row) await removeNotesOf(em, row.workspace_id, 'shipment_items', [item.id]);
    await em.delete(ShipmentItem, { id: item.id });
    await refreshOrderAggregates(em, [row?.order_id]);
    await this.changes.deleted(em, 'shipment_item', item.id, before);
    await this.shipmentEvents.indirectlyUpdated(em, shipmentBefore, 'shipment_item');
    await this.changes.indirectlyUpdated(em, 'order', Order, orderBefore, 'shipment_item');
  }
}
