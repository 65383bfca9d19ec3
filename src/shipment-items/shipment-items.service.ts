import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RecordChangeEvents, type RecordSnapshot } from '../events/record-change-events';
import type { NestedElement } from '../hydra/write/denormalizer';
import { ValidationError, Violation, ViolationCodes } from '../hydra/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import type { ResourceHooks, WriteContext } from '../hydra/write/resource-hooks';
import { removeNotesOf } from '../notes/record-notes';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { refreshOrderAggregates } from '../orders/order-aggregates';
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
}

/**
 * Shipment item rules. On POST `shipment` may be an object: it is created
 * first through the shipment rules (carrier identification included), in
 * the same transaction. The order item must belong to the shipment's
 * workspace, and the quantity must fit what is left of it: checked with the
 * order item row locked, so parallel requests cannot together exceed it.
 * The shipment is linked to the item's order, and the order's fulfilment is
 * recomputed.
 */
@Injectable()
export class ShipmentItemsService implements ResourceHooks<ShipmentItem>, OnModuleInit {
  private readonly stored = new WeakMap<ShipmentItem, Stored>();
  private readonly before = new WeakMap<ShipmentItem, RecordSnapshot | null>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly writer: ResourceWriter,
    private readonly shipments: ShipmentsService,
    private readonly changes: RecordChangeEvents,
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
        'SELECT order_item_id, workspace_id FROM shipment_item WHERE id = $1',
        [item.id],
      );
      this.stored.set(item, { orderItemId: row.order_item_id, workspaceId: row.workspace_id });
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
    const [row] = await em.query(
      `SELECT si.shipment_id, o.id AS order_id, o.order_number
         FROM shipment_item si
         JOIN order_item oi ON oi.id = si.order_item_id
         JOIN "order" o ON o.id = oi.order_id
        WHERE si.id = $1`,
      [item.id],
    );
    // A shipment carrying an order's items belongs to that order.
    await linkShipmentsToOrder(em, { id: row.order_id, orderNumber: row.order_number }, [
      row.shipment_id,
    ]);
    const previous = this.stored.get(item);
    const previousOrder = previous
      ? (await em.query('SELECT order_id FROM order_item WHERE id = $1', [previous.orderItemId]))[0]
          ?.order_id
      : null;
    await refreshOrderAggregates(em, [row.order_id, previousOrder]);
    if (ctx.operation === 'post') {
      await this.changes.created(em, 'shipment_item', ShipmentItem, item.id);
    } else {
      const before = this.before.get(item) ?? null;
      await this.changes.updated(em, 'shipment_item', ShipmentItem, item.id, before);
    }
  }

  /**
   * Deletes the item and the notes on it (removeNotesOf), then recomputes its order's
   * fulfilment. Every delete path of a shipment item (DELETE, delete_records_batch) runs this.
   */
  async remove(item: ShipmentItem, ctx: WriteContext): Promise<void> {
    const before = await this.changes.snapshot(ctx.em, ShipmentItem, item.id);
    const [row] = await ctx.em.query(
      `SELECT oi.order_id, si.workspace_id FROM shipment_item si
         JOIN order_item oi ON oi.id = si.order_item_id
        WHERE si.id = $1`,
      [item.id],
    );
    if (row) await removeNotesOf(ctx.em, row.workspace_id, 'shipment_items', [item.id]);
    await ctx.em.delete(ShipmentItem, { id: item.id });
    await refreshOrderAggregates(ctx.em, [row?.order_id]);
    await this.changes.deleted(ctx.em, 'shipment_item', item.id, before);
  }
}
