import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { announcedByCaller, announcedElsewhere } from '../events/indirect-changes';
import {
  RecordChangeEvents,
  type RecordsBefore,
  type RecordSnapshot,
} from '../events/record-change-events';
import type {
  BatchCreateHooks,
  NestedElement,
  ResourceHooks,
  WriteContext,
} from '../hydra/core/resource-hooks';
import { ValidationError, Violation, ViolationCodes } from '../common/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { removeNotesOf } from '../notes/record-notes';
import { ResourceWriter } from '../hydra/write/resource-writer';
import { OrderItemStore } from '../order-items/order-item-store';
import { orderIdsOf } from '../orders/order-aggregates';
import { OrderStore } from '../orders/order-store';
import { Order } from '../orders/order.entity';
import { ShipmentEvents, type ShipmentsBefore } from '../shipments/shipment-events';
import { linkShipmentsToOrder } from '../shipments/shipment-orders';
import {
  ShipmentRecordsStore,
  rememberedShipmentWorkspace,
} from '../shipments/shipment-records-store';
import { Shipment } from '../shipments/shipment.entity';
import { shipmentsCreatedAtEndOf } from '../shipments/shipments-created-at-end';
import { ShipmentsService } from '../shipments/shipments.service';
import type { Workspace } from '../workspaces/workspace.entity';
import { availableQuantity } from './shipment-item-quantity';
import { ShipmentItem } from './shipment-item.entity';
import {
  NEW_SHIPMENT_ITEMS,
  ShipmentItemStore,
  type StoredShipmentItem,
  type WrittenShipmentItem,
} from './shipment-item-store';
import type { OrderItem } from '../order-items/order-item.entity';
import { blankToNull } from '../shipments/text-input';
import { workflowIdsOf, workflowReferenceViolations } from '../shipments/workflow-references';
import { WorkflowStore } from '../workflows/workflow-store';

/** What one write of a shipment item carries from step to step. */
export interface ShipmentItemWrite {
  /** The item as stored before a PUT. */
  stored: StoredShipmentItem | null;
  /** The item as its events show it, before a PUT or DELETE. */
  before: RecordSnapshot | null;
  /** A create's shipment as it was before the item (its `shipmentItems`; set by `prepare`). */
  shipmentBefore: ShipmentsBefore;
  /** A batch create's item as its INSERT read it: where it belongs, its event's snapshot. */
  inserted?: { written: WrittenShipmentItem; snapshot: RecordSnapshot | undefined };
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
export class ShipmentItemsService implements ResourceHooks<ShipmentItem, ShipmentItemWrite> {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly writer: ResourceWriter,
    private readonly shipments: ShipmentsService,
    private readonly changes: RecordChangeEvents,
    private readonly shipmentEvents: ShipmentEvents,
    private readonly items: ShipmentItemStore,
    private readonly orderItems: OrderItemStore,
    private readonly orders: OrderStore,
    private readonly shipmentRecords: ShipmentRecordsStore,
    private readonly workflows: WorkflowStore,
  ) {}

  /**
   * The items a shipment's POST or PUT gives as objects: `{orderItem, qty}` creates one on the
   * shipment, `{@id, ...}` changes that item (already checked to be the shipment's), each
   * through the shipment item rules, in the shipment's transaction. Violations name the
   * element (`shipmentItems[1].qty`). Called by NestedShipmentItems (a shipment write extension).
   */
  async writeNested(
    shipmentId: string,
    elements: NestedElement[],
    ctx: WriteContext,
  ): Promise<void> {
    const resource = this.registry.get(ShipmentItem);
    // New items only, their shipment's own write announcing what they change: together.
    if (
      elements.length > 0 &&
      elements.every((e) => !e.id) &&
      announcedElsewhere(ctx.em, { aggregate: 'shipment', id: shipmentId })
    ) {
      // The shipment is the one the caller writes: its items name it without a check.
      this.writer.sawWritten(
        ctx.em,
        this.registry.get(Shipment),
        ctx.principal,
        shipmentId,
        rememberedShipmentWorkspace(ctx.em, shipmentId),
      );
      await this.writer.createManyWithin(
        ctx.em,
        resource,
        elements.map((element) => ({
          body: { ...element.value, shipment: `/shipments/${shipmentId}` },
          pathPrefix: `shipmentItems[${element.index}]`,
        })),
        ctx.principal,
        this,
        ctx.request,
      );
      return;
    }
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

  async begin(item: ShipmentItem, ctx: WriteContext<undefined>): Promise<ShipmentItemWrite> {
    const state: ShipmentItemWrite = { stored: null, before: null, shipmentBefore: new Map() };
    if (ctx.operation === 'post') return state;
    state.before = await this.changes.snapshot(ctx.em, ShipmentItem, item.id);
    if (ctx.operation === 'put') state.stored = await this.items.stored(ctx.em, item.id);
    return state;
  }

  async prepare(item: ShipmentItem, ctx: WriteContext<ShipmentItemWrite>): Promise<void> {
    const { em, state } = ctx;
    if (state.stored) {
      // A PUT that leaves the order item out keeps it (an explicit null stays a violation).
      if (!Object.prototype.hasOwnProperty.call(ctx.body, 'orderItem')) {
        item.orderItem = { id: state.stored.orderItemId } as OrderItem;
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
        const workspaces = await this.shipmentRecords.workspacesOf(em, [item.shipment.id]);
        item.workspace = { id: workspaces.get(item.shipment.id)! } as Workspace;
        state.shipmentBefore = await this.shipmentEvents.watch(em, [item.shipment.id]);
      }
    }
    item.qty ??= 0;
    item.externalSourceSyncId = blankToNull(item.externalSourceSyncId);
    item.fulfillmentSyncId = blankToNull(item.fulfillmentSyncId);
  }

  async validate(item: ShipmentItem, ctx: WriteContext<ShipmentItemWrite>): Promise<Violation[]> {
    const { em } = ctx;
    const workspaceId = ctx.state.stored?.workspaceId ?? item.workspace.id;
    const violations =
      ctx.operation === 'post'
        ? workflowReferenceViolations(
            item,
            workspaceId,
            await this.workflows.workspacesOf(em, workflowIdsOf(item)),
            'shipment item',
          )
        : [];
    // The lock serialises every quantity check of this order item.
    const orderItem = await this.orderItems.lockForShipping(em, item.orderItem.id);
    if (!orderItem || orderItem.workspaceId !== workspaceId) {
      return [...violations, ORDER_ITEM_OF_ANOTHER_WORKSPACE];
    }
    if (violations.length) return violations;
    const others = await this.items.shippedByOthers(em, item.orderItem.id, item.id ?? null);
    const available = availableQuantity(orderItem.qty, others);
    if (item.qty > available) throw new ValidationError([quantityViolation(available)]);
    return [];
  }

  /**
   * The new items of several shipments the caller created in its transaction (an import's
   * share), written as one batch of creates instead of each within its shipment's POST: the
   * order items locked and their shipped quantities read once, one INSERT. The shipments'
   * `shipment.created` waits for the end of the caller's write (ShipmentsCreatedAtEnd), so it
   * shows the items and they record no `shipment.updated`; what they change of `orders` the
   * caller announces itself. The first item a create would refuse is refused, under
   * `shipmentItems[i]`, and nothing is written.
   */
  async createForShipments(
    em: EntityManager,
    groups: ReadonlyArray<{
      shipmentId: string;
      items: ReadonlyArray<Record<string, unknown>>;
    }>,
    orderIds: readonly string[],
    principal: Principal,
  ): Promise<void> {
    const written = groups.filter((g) => g.items.length > 0);
    if (written.length === 0) return;
    const waiting = new Set(shipmentsCreatedAtEndOf(em)?.created.map((c) => c.id));
    if (written.some((g) => !waiting.has(g.shipmentId)))
      throw new Error('Shipment items are created together only for shipments created at the end');
    await announcedByCaller(
      em,
      [
        ...written.map((g) => ({ aggregate: 'shipment' as const, id: g.shipmentId })),
        ...orderIds.map((id) => ({ aggregate: 'order' as const, id })),
      ],
      (announcing) =>
        this.writer.createManyWithin(
          announcing,
          this.registry.get(ShipmentItem),
          written.flatMap((g) =>
            g.items.map((value, i) => ({
              body: { ...value, shipment: `/shipments/${g.shipmentId}` },
              pathPrefix: `shipmentItems[${i}]`,
            })),
          ),
          principal,
          this,
        ),
    );
  }

  /**
   * The batch form of creates (ResourceWriter.createManyWithin), for the new items a shipment's
   * own write gives: the order items locked and their shipped quantities read once, the items
   * inserted in one statement, their events read in one. Same rules and results as `validate`,
   * `persist` and `afterWrite` item after item, an item counting those before it.
   */
  readonly createMany: BatchCreateHooks<ShipmentItem, ShipmentItemWrite> = {
    validate: (items, ctxs) => this.validateNew(items, ctxs),
    persist: (items, ctxs) => this.insertNew(items, ctxs),
    afterWrite: (items, ctxs) => this.afterNew(items, ctxs),
  };

  private async validateNew(
    items: ShipmentItem[],
    ctxs: WriteContext<ShipmentItemWrite>[],
  ): Promise<Violation[][]> {
    if (items.length === 0) return [];
    const { em } = ctxs[0];
    const workflows = await this.workflows.workspacesOf(em, items.flatMap(workflowIdsOf));
    const orderItemIds = items.map((i) => i.orderItem.id);
    // The locks serialise every quantity check of these order items (in id order).
    const orderItems = await this.orderItems.lockManyForShipping(em, orderItemIds);
    const shipped = await this.items.shippedOfMany(em, orderItemIds);
    return items.map((item) => {
      const workspaceId = item.workspace.id;
      const violations = workflowReferenceViolations(item, workspaceId, workflows, 'shipment item');
      const orderItem = orderItems.get(item.orderItem.id);
      if (!orderItem || orderItem.workspaceId !== workspaceId)
        return [...violations, ORDER_ITEM_OF_ANOTHER_WORKSPACE];
      if (violations.length) return violations;
      const others = shipped.get(item.orderItem.id) ?? 0;
      const available = availableQuantity(orderItem.qty, others);
      if (item.qty > available) return [quantityViolation(available)];
      // What this item takes counts against the items after it.
      shipped.set(item.orderItem.id, others + item.qty);
      return [];
    });
  }

  /** The items in one statement, which also reads what `afterNew` needs (their state). */
  private async insertNew(
    items: ShipmentItem[],
    ctxs: WriteContext<ShipmentItemWrite>[],
  ): Promise<void> {
    if (items.length === 0) return;
    for (const item of items) item.id = randomUUID();
    const inserted = await this.items.insertMany(
      ctxs[0].em,
      items.map((item) => ({
        id: item.id,
        workspaceId: item.workspace.id,
        shipmentId: item.shipment.id,
        orderItemId: item.orderItem.id,
        qty: item.qty,
        externalSourceSyncId: item.externalSourceSyncId ?? null,
        fulfillmentSyncId: item.fulfillmentSyncId ?? null,
        externalSourceIntegrationId: item.externalSourceIntegration?.id ?? null,
        fulfillmentIntegrationId: item.fulfillmentIntegration?.id ?? null,
      })),
      this.changes.newRecordsRead(ShipmentItem, NEW_SHIPMENT_ITEMS),
    );
    const snapshots = new Map(
      this.changes.snapshotsOf(
        ShipmentItem,
        inserted.map((i) => i.row),
      ),
    );
    for (const [n, { written }] of inserted.entries())
      ctxs[n].state.inserted = { written, snapshot: snapshots.get(items[n].id) };
  }

  /**
   * The links to orders the items make, their orders' aggregates and `shipment_item.created`:
   * from what their INSERT read (nothing in between writes the items themselves).
   */
  private async afterNew(
    items: ShipmentItem[],
    ctxs: WriteContext<ShipmentItemWrite>[],
  ): Promise<void> {
    if (items.length === 0) return;
    const { em } = ctxs[0];
    const rows = ctxs.map((ctx) => ctx.state.inserted!.written);
    const linked = new Set<string>();
    for (const row of rows) {
      // What `afterWrite` would have watched: the caller announces all of it (writeNested).
      if (
        !announcedElsewhere(em, { aggregate: 'shipment', id: row.shipmentId }) ||
        !announcedElsewhere(em, { aggregate: 'order', id: row.orderId })
      )
        throw new Error('Shipment items are created together only inside their shipment write');
      const key = `${row.shipmentId}:${row.orderId}`;
      if (row.linked || linked.has(key)) continue;
      await linkShipmentsToOrder(em, { id: row.orderId, orderNumber: row.orderNumber }, [
        row.shipmentId,
      ]);
      linked.add(key);
    }
    await this.orders.refreshAggregates(em, orderIdsOf(rows.map((r) => r.orderId)));
    const snapshots = new Map<string, RecordSnapshot>();
    for (const [n, ctx] of ctxs.entries()) {
      const snapshot = ctx.state.inserted!.snapshot;
      if (snapshot) snapshots.set(items[n].id, snapshot);
    }
    await this.changes.createdMany(
      em,
      'shipment_item',
      ShipmentItem,
      items.map((i) => i.id),
      snapshots,
    );
  }

  async afterWrite(item: ShipmentItem, ctx: WriteContext<ShipmentItemWrite>): Promise<void> {
    const { em, state } = ctx;
    const row = await this.items.written(em, item.id);
    const created = ctx.operation === 'post';
    const previous = state.stored;
    // What else the write changes, as it was: a create's shipment (its items; read before
    // the item's INSERT) or the shipment it links, and the orders whose links or fulfilment
    // move. The orders' stored fulfilment changes only below (refreshAggregates).
    const shipmentBefore = created
      ? state.shipmentBefore
      : row.linked
        ? new Map()
        : await this.shipmentEvents.watch(em, [row.shipmentId]);
    const ordersChange =
      !previous ||
      !row.linked ||
      previous.orderItemId !== row.orderItemId ||
      previous.qty !== item.qty;
    const ordersBefore: RecordsBefore = ordersChange
      ? await this.changes.watch(em, 'order', Order, [row.orderId, previous?.orderId])
      : new Map();
    // A shipment carrying an order's items belongs to that order.
    if (!row.linked) {
      await linkShipmentsToOrder(em, { id: row.orderId, orderNumber: row.orderNumber }, [
        row.shipmentId,
      ]);
    }
    await this.orders.refreshAggregates(em, orderIdsOf([row.orderId, previous?.orderId]));
    if (created) {
      await this.changes.created(em, 'shipment_item', ShipmentItem, item.id);
    } else {
      await this.changes.updated(em, 'shipment_item', ShipmentItem, item.id, state.before);
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
  async remove(item: ShipmentItem, ctx: WriteContext<ShipmentItemWrite>): Promise<void> {
    const { em } = ctx;
    const row = await this.items.removal(em, item.id);
    const shipmentBefore = await this.shipmentEvents.watch(em, row ? [row.shipmentId] : []);
    const orderBefore = await this.changes.watch(em, 'order', Order, [row?.orderId]);
    if (row) await removeNotesOf(em, row.workspaceId, 'shipment_items', [item.id]);
    await this.items.remove(em, item.id);
    await this.orders.refreshAggregates(em, orderIdsOf([row?.orderId]));
    await this.changes.deleted(em, 'shipment_item', item.id, ctx.state.before);
    await this.shipmentEvents.indirectlyUpdated(em, shipmentBefore, 'shipment_item');
    await this.changes.indirectlyUpdated(em, 'order', Order, orderBefore, 'shipment_item');
  }
}

const ORDER_ITEM_OF_ANOTHER_WORKSPACE: Violation = {
  propertyPath: 'orderItem',
  message: 'The order item must belong to the workspace of the shipment.',
  code: ViolationCodes.invalid,
};

/** More than what is left of the order item. */
function quantityViolation(available: number): Violation {
  return {
    propertyPath: 'qty',
    message: `This value should be less than or equal to ${available}, the quantity of the order item left to fulfil.`,
    code: ViolationCodes.lessThanOrEqual,
  };
}
