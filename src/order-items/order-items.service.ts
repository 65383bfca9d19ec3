import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import {
  RecordChangeEvents,
  type RecordSnapshot,
  type RecordsBefore,
} from '../events/record-change-events';
import type { Violation } from '../common/errors/api-errors';
import type { BatchCreateHooks, ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { recordEvents, type OutboxEvent } from '../events/outbox';
import { changedFields } from '../shipments/shipment-changes';
import { removeNotesOf } from '../notes/record-notes';
import { duplicateInBatch, refuseDuplicateSyncId } from '../orders/external-sync-id';
import { orderIdsOf } from '../orders/order-aggregates';
import { OrderStore } from '../orders/order-store';
import { Order } from '../orders/order.entity';
import { ProductStore } from '../products/product-store';
import { ShipmentEvents } from '../shipments/shipment-events';
import type { Workspace } from '../workspaces/workspace.entity';
import { OrderItem } from './order-item.entity';
import {
  catalogueViolations,
  normalizeOrderItem,
  orderAfterEachNewItem,
  productOptionsViolations,
  shippedQuantityViolations,
} from './order-item-rules';
import { OrderItemStore, rememberItemOrder, syncIdKey } from './order-item-store';

/** What one write of an order item carries from step to step. */
export interface OrderItemWrite {
  /** The item's order: the stored one (PUT), or the one a POST gives (set by `prepare`). */
  orderId: string | null;
  /** The item as its events show it, before a PUT or DELETE. */
  before: RecordSnapshot | null;
  /** The item's order as it read before the write (set by `prepare`). */
  orderBefore: RecordsBefore;
}

/**
 * Order item rules: the item lives in its order's workspace; qty and price
 * default to 0; qty may not drop below what shipments already carry; the
 * order's fulfilment is recomputed with every change, and the order gets
 * `order.updated` (`cause: "order_item"`) when that changed how it reads.
 */
@Injectable()
export class OrderItemsService implements ResourceHooks<OrderItem, OrderItemWrite> {
  constructor(
    private readonly changes: RecordChangeEvents,
    private readonly shipmentEvents: ShipmentEvents,
    private readonly items: OrderItemStore,
    private readonly orders: OrderStore,
    private readonly products: ProductStore,
  ) {}

  async begin(item: OrderItem, ctx: WriteContext<undefined>): Promise<OrderItemWrite> {
    const state: OrderItemWrite = { orderId: null, before: null, orderBefore: new Map() };
    if (ctx.operation === 'post') return state;
    state.before = await this.changes.snapshot(ctx.em, OrderItem, item.id);
    if (ctx.operation === 'put') state.orderId = await this.items.orderOf(ctx.em, item.id);
    return state;
  }

  async prepare(item: OrderItem, ctx: WriteContext<OrderItemWrite>): Promise<void> {
    const { em, state } = ctx;
    if (ctx.operation === 'post' && item.order?.id) {
      state.orderId = item.order.id;
      const workspaceId = await this.orders.workspaceOf(em, item.order.id);
      if (workspaceId) item.workspace = { id: workspaceId } as Workspace;
    }
    // A batch watches its orders once (createMany).
    if (!ctx.batch)
      state.orderBefore = await this.changes.watch(em, 'order', Order, [state.orderId]);
    normalizeOrderItem(item);
  }

  async validate(item: OrderItem, ctx: WriteContext<OrderItemWrite>): Promise<Violation[]> {
    const { em } = ctx;
    const violations: Violation[] = [];
    const workspaceId = item.workspace?.id;
    if (ctx.operation === 'post' && workspaceId) {
      await refuseDuplicateSyncId('order_item', item.externalSourceSyncId, (syncId) =>
        this.items.syncIdTaken(em, workspaceId, item.externalSourceIntegration, syncId),
      );
      violations.push(...(await this.catalogueCheck(em, workspaceId, item)));
    }
    violations.push(...productOptionsViolations(item.productOptions));
    if (ctx.operation === 'put') {
      // The row is locked by the write: shipment items of it wait for us.
      violations.push(
        ...shippedQuantityViolations(item.qty, await this.items.shipped(em, item.id)),
      );
    }
    return violations;
  }

  /**
   * The batch form of creates (ResourceWriter.createManyWithin), for the new lines of orders
   * (an import): their store ids locked and looked up at once, one insert, the orders refreshed
   * once, the items' and orders' snapshots read once each; each order's `order.updated`
   * (`cause: "order_item"`) after each item computed from the order before and after them all
   * (orderAfterEachNewItem). Same rules, rows and events as item after item.
   */
  readonly createMany: BatchCreateHooks<OrderItem, OrderItemWrite> = {
    validate: (items, ctxs) => this.validateNew(items, ctxs),
    persist: async (items, ctxs) => {
      // One INSERT of every row (TypeORM's insert of an array), their ids set on the items.
      if (items.length > 0)
        await ctxs[0].em.insert(OrderItem, items as QueryDeepPartialEntity<OrderItem>[]);
    },
    afterWrite: (items, ctxs) => this.afterNew(items, ctxs),
  };

  /** The item's product and variant must be of the workspace's team catalogue. */
  private async catalogueCheck(
    em: EntityManager,
    workspaceId: string,
    item: OrderItem,
  ): Promise<Violation[]> {
    const productId = item.product?.id ?? null;
    const variantId = item.productVariant?.id ?? null;
    if (!productId && !variantId) return [];
    const teams = await this.products.catalogueTeams(em, workspaceId, productId, variantId);
    return catalogueViolations(teams, productId, variantId);
  }

  private async validateNew(
    items: OrderItem[],
    ctxs: WriteContext<OrderItemWrite>[],
  ): Promise<Array<Violation[] | Error>> {
    if (items.length === 0) return [];
    const { em } = ctxs[0];
    const synced = items.flatMap((item) =>
      item.workspace?.id && item.externalSourceSyncId !== null
        ? [
            {
              workspaceId: item.workspace.id,
              integration: item.externalSourceIntegration,
              syncId: item.externalSourceSyncId,
            },
          ]
        : [],
    );
    const taken = await this.items.syncIdsTaken(em, synced);
    const out: Array<Violation[] | Error> = [];
    for (const item of items) {
      const workspaceId = item.workspace?.id;
      const violations: Violation[] = [];
      if (workspaceId) {
        // An item before it with the same store id is written first: this one is a duplicate.
        const refused = await duplicateInBatch(
          'order_item',
          item.externalSourceSyncId,
          (syncId) => syncIdKey(workspaceId, item.externalSourceIntegration, syncId),
          taken,
        );
        if (refused) {
          out.push(refused);
          continue;
        }
        violations.push(...(await this.catalogueCheck(em, workspaceId, item)));
      }
      violations.push(...productOptionsViolations(item.productOptions));
      out.push(violations);
    }
    // The orders as they are before the items, for their `order.updated` (one statement).
    const before = await this.changes.watch(
      em,
      'order',
      Order,
      ctxs.map((c) => c.state.orderId),
    );
    for (const ctx of ctxs) ctx.state.orderBefore = before;
    return out;
  }

  private async afterNew(items: OrderItem[], ctxs: WriteContext<OrderItemWrite>[]): Promise<void> {
    if (items.length === 0) return;
    const { em } = ctxs[0];
    for (const [i, item] of items.entries())
      if (ctxs[i].state.orderId) rememberItemOrder(em, item.id, ctxs[i].state.orderId!);
    const orderIds = orderIdsOf(ctxs.map((c) => c.state.orderId));
    await this.orders.refreshAggregates(em, orderIds);
    const itemsNow = await this.changes.snapshots(
      em,
      OrderItem,
      items.map((i) => i.id),
    );
    const before = ctxs[0].state.orderBefore;
    const ordersNow = await this.changes.snapshots(em, Order, [...before.keys()]);
    // Each watched order after each of its new items, in the order they were given.
    const steps = new Map<string, Array<Record<string, unknown>>>();
    for (const [orderId, was] of before) {
      const now = ordersNow.get(orderId);
      if (!now) continue;
      const mine = items.flatMap((item, i) =>
        ctxs[i].state.orderId === orderId
          ? [{ iri: String(itemsNow.get(item.id)?.representation['@id']), qty: item.qty }]
          : [],
      );
      const computed = orderAfterEachNewItem(was.representation, now.representation, mine);
      if (!computed)
        throw new Error(`Order ${orderId} changed in a way its new items do not explain`);
      steps.set(orderId, computed);
    }
    const events: OutboxEvent[] = [];
    const last = new Map([...before].map(([id, was]) => [id, was.representation]));
    for (const [i, item] of items.entries()) {
      const snapshot = itemsNow.get(item.id);
      if (snapshot)
        events.push(this.changes.event('order_item.created', 'order_item', item.id, snapshot));
      const orderId = ctxs[i].state.orderId;
      const next = orderId ? steps.get(orderId)?.shift() : undefined;
      if (!orderId || !next) continue;
      const changed = changedFields(last.get(orderId)!, next);
      last.set(orderId, next);
      if (changed.length === 0) continue;
      const workspaceId = ordersNow.get(orderId)!.workspaceId;
      events.push(
        this.changes.event(
          'order.updated',
          'order',
          orderId,
          { workspaceId, representation: next },
          changed,
          'order_item',
        ),
      );
    }
    await recordEvents(em, events);
  }

  async afterWrite(item: OrderItem, ctx: WriteContext<OrderItemWrite>): Promise<void> {
    const { em, state } = ctx;
    await this.orders.refreshAggregates(em, orderIdsOf([state.orderId]));
    if (ctx.operation === 'post') {
      if (state.orderId) rememberItemOrder(em, item.id, state.orderId);
      await this.changes.created(em, 'order_item', OrderItem, item.id);
    } else {
      await this.changes.updated(em, 'order_item', OrderItem, item.id, state.before);
    }
    await this.changes.indirectlyUpdated(em, 'order', Order, state.orderBefore, 'order_item');
  }

  /**
   * Deletes the item (its shipment items go with it) and the notes on both (removeNotesOf),
   * then recomputes the order's fulfilment; the shipments that carried it (`shipmentItems`)
   * and its order (`items`, fulfilment) get `shipment.updated` / `order.updated` with
   * `cause: "order_item"`. Every delete path of an order item (DELETE, delete_records_batch)
   * runs this.
   */
  async remove(item: OrderItem, ctx: WriteContext<OrderItemWrite>): Promise<void> {
    const { em } = ctx;
    const stored = await this.items.removal(em, item.id);
    const shipmentsBefore = await this.shipmentEvents.watch(em, stored?.shipmentIds ?? []);
    const orderBefore = await this.changes.watch(em, 'order', Order, [stored?.orderId]);
    if (stored) await removeNotesOf(em, stored.workspaceId, 'order_items', [item.id]);
    await this.items.remove(em, item.id);
    await this.orders.refreshAggregates(em, orderIdsOf([stored?.orderId]));
    await this.changes.deleted(em, 'order_item', item.id, ctx.state.before);
    await this.shipmentEvents.indirectlyUpdated(em, shipmentsBefore, 'order_item');
    await this.changes.indirectlyUpdated(em, 'order', Order, orderBefore, 'order_item');
  }
}
