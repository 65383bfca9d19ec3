import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { announcedByCaller } from '../events/indirect-changes';
import { RecordChangeEvents } from '../events/record-change-events';
import type { NestedElement, WriteContext } from '../hydra/core/resource-hooks';
import { removeNotesOfDeleted } from '../notes/record-notes';
import { OrderItemStore } from '../order-items/order-item-store';
import { orderIdsOf, refreshingOnce } from '../orders/order-aggregates';
import { OrderStore } from '../orders/order-store';
import { Order } from '../orders/order.entity';
import { orderUpdatesAtEndOf } from '../orders/order-updates-at-end';
import { ShipmentItemStore } from '../shipment-items/shipment-item-store';
import { ShipmentEvents } from './shipment-events';
import {
  completeShipmentOrders,
  linkedOrders,
  newShipmentLinks,
  planShipmentOrders,
  replaceShipmentLinks,
  type OrderRef,
} from './shipment-orders';
import type { Shipment } from './shipment.entity';
import { ShipmentStore } from './shipment-store';
import { ShipmentWriteExtensions } from './shipment-write-extensions';
import { has, ordersChangedByLinks, referencedId } from './shipment-write-rules';
import type { Creating, ShipmentWrite, StoredState } from './shipment-write-state';
import { rememberShipmentWorkspace } from './shipment-records-store';

/**
 * The persisting step of a shipment's create or replace (ShipmentsService.persist): the row,
 * its links to orders (kept consistent with `orderNumbers`), the items a PUT left out
 * (deleted), the nested items, and the aggregates and `order.updated` events of every order
 * involved.
 */
@Injectable()
export class ShipmentWriter {
  constructor(
    private readonly events: ShipmentEvents,
    private readonly store: ShipmentStore,
    private readonly orderEvents: RecordChangeEvents,
    private readonly extensions: ShipmentWriteExtensions,
    private readonly orders: OrderStore,
    private readonly orderItems: OrderItemStore,
    private readonly items: ShipmentItemStore,
  ) {}

  async persist(shipment: Shipment, workspaceId: string, ctx: WriteContext<ShipmentWrite>) {
    const { em } = ctx;
    const givenOrderIds = has(ctx.body, 'orders')
      ? (shipment.orders ?? []).map((o) => o.id)
      : undefined;
    const keptItemIds = has(ctx.body, 'shipmentItems')
      ? (shipment.shipmentItems ?? []).map((i) => i.id)
      : undefined;
    // Relations are written below with SQL, not by TypeORM's cascade.
    delete (shipment as Partial<Shipment>).orders;
    delete (shipment as Partial<Shipment>).shipmentItems;

    const { stored, creating } = ctx.state;
    const existingLinks = stored ? await linkedOrders(em, shipment.id) : [];
    const plan = planShipmentOrders({
      existingLinks,
      existingNumbers: stored?.orderNumbers ?? [],
      givenOrders: givenOrderIds
        ? (ctx.state.givenOrders ?? (await this.orders.refs(em, givenOrderIds)))
        : undefined,
      givenNumbers: has(ctx.body, 'orderNumbers') ? shipment.orderNumbers : undefined,
    });
    const linked = completeShipmentOrders(
      plan,
      await this.orders.byNumbers(em, workspaceId, plan.numbers),
    );
    shipment.orderNumbers = linked.numbers;
    const elements = ctx.nestedElements?.shipmentItems;
    const watched = await this.watchedOrders(em, shipment, {
      stored,
      existingLinks,
      linked: linked.orders,
      itemsWritten: keptItemIds !== undefined || !!elements?.length,
      elements: elements ?? [],
    });
    // A new shipment of a share whose order updates wait for its end (OrderUpdatesAtEnd): the
    // orders it watches are read before the first shipment that watches them only.
    const atEnd = stored ? undefined : orderUpdatesAtEndOf(em);
    const ordersBefore = await this.orderEvents.watch(
      em,
      'order',
      Order,
      atEnd ? watched.filter((id) => !atEnd.before.has(id)) : watched,
    );
    if (atEnd) for (const [id, snapshot] of ordersBefore) atEnd.before.set(id, snapshot);
    if (stored) await em.save(shipment);
    else {
      // Nothing but the row itself before `shipment.created`: its INSERT reads the snapshot.
      const alone = linked.orders.length === 0 && !keptItemIds?.length && !elements?.length;
      await this.insertNew(shipment, workspaceId, em, creating, alone, linked.orders);
    }
    // A new shipment's links were written by its INSERT.
    if (stored)
      await replaceShipmentLinks(
        em,
        shipment.id,
        linked.orders.map((o) => o.id),
      );

    const affected = [...existingLinks, ...linked.orders].map((o) => o.id);
    // A new shipment has no items yet: none to leave out.
    if (keptItemIds && stored) {
      const removed = await this.items.removeLeftOut(em, shipment.id, keptItemIds);
      // The items left out go as DELETE /shipment_items/{id} would take them: with their notes.
      await removeNotesOfDeleted(em, 'shipment_items', removed);
      affected.push(...removed.map((r) => r.order_id));
    }
    // The orders are refreshed once, after the items this write gives (each would otherwise).
    await refreshingOnce(
      em,
      async (deferring) => {
        await this.orders.refreshAggregates(deferring, orderIdsOf(affected));
        if (!elements?.length) return;
        const writer = this.extensions.nestedItemsWriter();
        if (!writer) throw new Error('No writer for nested shipment items');
        // This write's own events tell what its items changed: theirs do not again.
        await announcedByCaller(
          deferring,
          [
            { aggregate: 'shipment', id: shipment.id },
            ...watched.map((id) => ({ aggregate: 'order' as const, id })),
          ],
          (announcing) => writer(shipment.id, elements, { ...ctx, em: announcing }),
        );
      },
      this.orders,
    );
    if (!atEnd)
      await this.orderEvents.indirectlyUpdated(em, 'order', Order, ordersBefore, 'shipment');
  }

  /**
   * The orders a create or replace may change, as they were before it: those whose links or
   * `shipmentsWithoutTrackingCount` it changes (ordersChangedByLinks), and, when it writes
   * items, the orders of its items and of the order items it ships (their
   * `fulfillmentStatus`). Their ids (the watch leaves out those an enclosing write announces).
   */
  private async watchedOrders(
    em: EntityManager,
    shipment: Shipment,
    change: {
      stored: StoredState | null;
      existingLinks: OrderRef[];
      linked: OrderRef[];
      itemsWritten: boolean;
      elements: NestedElement[];
    },
  ): Promise<string[]> {
    const ids = ordersChangedByLinks({
      before: change.existingLinks.map((o) => o.id),
      after: change.linked.map((o) => o.id),
      storedNumber: change.stored ? change.stored.trackingNumber : undefined,
      trackingNumber: shipment.trackingNumber,
    });
    if (change.itemsWritten) {
      const orderItemIds = change.elements
        .map((e) => referencedId(e.value.orderItem))
        .filter((id): id is string => id !== null);
      const shipped = change.stored ? shipment.id : null;
      for (const id of await this.orderItems.ordersOf(em, orderItemIds, shipped)) ids.add(id);
    }
    return [...ids].filter((id) => !!id);
  }

  /**
   * Inserts a new shipment with its tracking fields, decided first (an extension's trackNew:
   * for a local provider the status, checkpoints and dates are known before the row exists)
   * and, in the same statement, its checkpoints, its links to `orders`, what the deciders
   * write beside it (the prediction's contribution) and, when `readSnapshot`, the snapshot
   * `shipment.created` carries.
   */
  private async insertNew(
    shipment: Shipment,
    workspaceId: string,
    em: EntityManager,
    creating: Creating | null,
    readSnapshot: boolean,
    orders: readonly OrderRef[],
  ) {
    const creation = creating?.creation;
    if (!creating || !creation) throw new Error('A shipment is inserted only after its validation');
    shipment.id = randomUUID();
    const created = {
      id: shipment.id,
      workspaceId,
      teamId: creation.teamId,
      trackingNumber: shipment.trackingNumber,
      originCarrier: shipment.originCarrier,
      createdAt: creation.now,
    };
    const tracking = await this.extensions.trackNew(created, em);
    // Then what other modules decide from that tracking (predictions): one INSERT for all.
    const decided = await this.extensions.decideNew(
      {
        ...created,
        postcode: shipment.address?.postcode ?? null,
        addressCountryIso2: shipment.address?.countryIso2 ?? null,
        tracked: tracking?.tracked ?? null,
        creation: creation.row,
      },
      em,
    );
    const row = await this.store.insert(
      em,
      shipment,
      { ...tracking?.columns, ...decided.columns },
      [tracking?.dependents, newShipmentLinks(orders.map((o) => o.id)), ...decided.dependents],
      readSnapshot ? this.events.newShipmentRead() : null,
    );
    rememberShipmentWorkspace(em, shipment.id, workspaceId);
    if (readSnapshot) creating.inserted = this.events.toSnapshot(row);
    await tracking?.afterInsert?.(em);
    await decided.afterInsert(em);
    creating.events = [...(tracking?.events ?? []), ...decided.events];
  }
}
