import { Injectable } from '@nestjs/common';
import { RecordChangeEvents, type RecordSnapshot } from '../events/record-change-events';
import { ValidationError, Violation } from '../common/errors/api-errors';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { BatchCreateHooks, ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { removeNotesOf } from '../notes/record-notes';
import { ShipmentEvents } from '../shipments/shipment-events';
import { linkShipmentsToOrder, unlinkShipmentsFromOrder } from '../shipments/shipment-orders';
import { ShipmentRecordsStore } from '../shipments/shipment-records-store';
import { assertStatusOf, statusCodeInput } from '../statuses/status-references';
import { StatusStore } from '../statuses/status-store';
import type { Status } from '../statuses/status.entity';
import { duplicateInBatch, refuseDuplicateSyncId } from './external-sync-id';
import {
  ORDER_NUMBER_TAKEN,
  currencyViolations,
  foreignShipmentViolations,
  normalizeOrder,
  planOrderLinks,
} from './order-rules';
import { OrderStore, orderNumberKey, orderSyncIdKey, rememberNewOrder } from './order-store';
import { Order } from './order.entity';

/** What one write of an order carries from `begin` to its later steps. */
export interface OrderWrite {
  /** The stored order's workspace on PUT (a POST's comes with the body). */
  storedWorkspaceId: string | null;
  /** The order as its events show it, before a PUT or DELETE. */
  before: RecordSnapshot | null;
}

/**
 * Order rules: order numbers unique per workspace, ISO 4217 currency
 * (USD by default), decimal totals (0 by default), embedded status
 * find-or-create, contact validation, and links to shipments kept
 * consistent with the shipments' `orderNumbers` in both directions (also
 * when the order is deleted). The number itself is set on POST only (the
 * spec's Order-Put has none), so shipments never need it renamed.
 *
 * Shipments changed that way (links, `orderNumbers`, and on a deletion the
 * items of the order's items) get a `shipment.updated` with `cause: "order"`
 * in the write's transaction: webhooks hear of it, e-mail notifications do
 * not match it (an order's edit never mails the customer; src/events/README.md).
 */
@Injectable()
export class OrdersService implements ResourceHooks<Order, OrderWrite> {
  constructor(
    private readonly changes: RecordChangeEvents,
    private readonly shipmentEvents: ShipmentEvents,
    private readonly orders: OrderStore,
    private readonly shipments: ShipmentRecordsStore,
    private readonly statuses: StatusStore,
  ) {}

  async begin(order: Order, ctx: WriteContext<undefined>): Promise<OrderWrite> {
    if (ctx.operation === 'post') return { storedWorkspaceId: null, before: null };
    const before = await this.changes.snapshot(ctx.em, Order, order.id);
    if (ctx.operation === 'delete') return { storedWorkspaceId: null, before };
    return { storedWorkspaceId: await this.orders.workspaceOf(ctx.em, order.id), before };
  }

  async prepare(order: Order, ctx: WriteContext<OrderWrite>): Promise<void> {
    normalizeOrder(order, ctx.operation);
    const statusInput = ctx.nested.orderStatus;
    const workspaceId = workspaceOf(order, ctx.state);
    if (statusInput === null) order.orderStatus = null;
    else if (statusInput !== undefined && workspaceId) {
      const { code, title } = statusCodeInput(statusInput, 'orderStatus');
      const id = await this.statuses.findOrCreate(ctx.em, workspaceId, 'orders', code, title);
      order.orderStatus = { id } as Status;
    }
  }

  async validate(order: Order, ctx: WriteContext<OrderWrite>): Promise<Violation[]> {
    const { em } = ctx;
    const workspaceId = workspaceOf(order, ctx.state)!;
    if (ctx.operation === 'post') {
      await refuseDuplicateSyncId('order', order.externalSourceSyncId, (syncId) =>
        this.orders.syncIdTaken(em, workspaceId, order.externalSourceIntegration, syncId),
      );
    }
    const violations = currencyViolations(order.currency);
    if (
      order.orderNumber !== null &&
      ctx.operation === 'post' &&
      (await this.orders.numberTaken(em, workspaceId, order.orderNumber))
    ) {
      violations.push(ORDER_NUMBER_TAKEN);
    }
    violations.push(...(await this.referenceViolations(order, ctx, workspaceId)));
    return violations;
  }

  /** The status given by IRI and the shipments given must be of the order's workspace. */
  private async referenceViolations(
    order: Order,
    ctx: WriteContext<OrderWrite>,
    workspaceId: string,
  ): Promise<Violation[]> {
    const { em } = ctx;
    const violations: Violation[] = [];
    if (
      order.orderStatus?.id &&
      ctx.nested.orderStatus === undefined &&
      has(ctx.body, 'orderStatus')
    ) {
      try {
        const status = await this.statuses.byId(em, order.orderStatus.id);
        assertStatusOf(status, workspaceId, 'orders', 'orderStatus');
      } catch (error) {
        if (error instanceof ValidationError) violations.push(...error.violations);
        else throw error;
      }
    }
    if (has(ctx.body, 'shipments') && order.shipments) {
      const ids = order.shipments.map((s) => s.id);
      const owners = await this.shipments.workspacesOf(em, ids);
      violations.push(...foreignShipmentViolations(ids, owners, workspaceId));
    }
    return violations;
  }

  /**
   * The batch form of creates (ResourceWriter.createManyWithin), for the new orders of an
   * import's share: store ids locked and looked up at once and numbers looked up at once (a
   * duplicate within the batch refused as the second POST would be), one INSERT, the shipments
   * carrying their numbers read at once, `order.created` from one read. Same rules, rows and
   * events as order after order.
   */
  readonly createMany: BatchCreateHooks<Order, OrderWrite> = {
    validate: (orders, ctxs) => this.validateNew(orders, ctxs),
    persist: (orders, ctxs) => this.persistNew(orders, ctxs),
    afterWrite: (orders, ctxs) => this.afterNew(orders, ctxs),
  };

  private async validateNew(
    orders: Order[],
    ctxs: WriteContext<OrderWrite>[],
  ): Promise<Array<Violation[] | Error>> {
    if (orders.length === 0) return [];
    const { em } = ctxs[0];
    const workspaces = orders.map((order, i) => workspaceOf(order, ctxs[i].state)!);
    const taken = await this.orders.syncIdsTaken(
      em,
      orders.flatMap((order, i) =>
        order.externalSourceSyncId !== null
          ? [
              {
                workspaceId: workspaces[i],
                integration: order.externalSourceIntegration,
                syncId: order.externalSourceSyncId,
              },
            ]
          : [],
      ),
    );
    const numbers = await this.orders.numbersTaken(
      em,
      orders.flatMap((order, i) =>
        order.orderNumber !== null
          ? [{ workspaceId: workspaces[i], orderNumber: order.orderNumber }]
          : [],
      ),
    );
    const out: Array<Violation[] | Error> = [];
    for (const [i, order] of orders.entries()) {
      const workspaceId = workspaces[i];
      // An order before it with the same store id is written first: this one is a duplicate.
      const refused = await duplicateInBatch(
        'order',
        order.externalSourceSyncId,
        (syncId) => orderSyncIdKey(workspaceId, order.externalSourceIntegration, syncId),
        taken,
      );
      if (refused) {
        out.push(refused);
        continue;
      }
      const violations = currencyViolations(order.currency);
      if (order.orderNumber !== null) {
        // Likewise an order before it with the same number.
        const key = orderNumberKey(workspaceId, order.orderNumber);
        if (numbers.has(key)) violations.push(ORDER_NUMBER_TAKEN);
        numbers.add(key);
      }
      violations.push(...(await this.referenceViolations(order, ctxs[i], workspaceId)));
      out.push(violations);
    }
    return out;
  }

  /**
   * One INSERT of every order (TypeORM's insert of the array, their ids set on the orders),
   * then the shipments carrying their numbers read at once; an order given shipments, or with
   * some carrying its number, is linked as `persist` links it.
   */
  private async persistNew(orders: Order[], ctxs: WriteContext<OrderWrite>[]): Promise<void> {
    if (orders.length === 0) return;
    const { em } = ctxs[0];
    const given = orders.map((order, i) =>
      has(ctxs[i].body, 'shipments') ? (order.shipments ?? []).map((s) => s.id) : undefined,
    );
    for (const order of orders) {
      delete (order as Partial<Order>).shipments;
      delete (order as Partial<Order>).items;
    }
    await em.insert(Order, orders as QueryDeepPartialEntity<Order>[]);
    const numbered = orders.flatMap((order, i) =>
      order.orderNumber ? [{ i, workspaceId: workspaceOf(order, ctxs[i].state)! }] : [],
    );
    const carried = await this.shipments.carryingOrderNumbers(
      em,
      numbered.map(({ i, workspaceId }) => ({ workspaceId, orderNumber: orders[i].orderNumber! })),
    );
    const carrying = new Map(numbered.map(({ i }, n) => [i, carried.get(n) ?? []]));
    for (const [i, order] of orders.entries())
      await this.link(order, ctxs[i], given[i], carrying.get(i) ?? []);
  }

  private async afterNew(orders: Order[], ctxs: WriteContext<OrderWrite>[]): Promise<void> {
    if (orders.length === 0) return;
    const { em } = ctxs[0];
    for (const order of orders)
      if (order.workspace?.id)
        rememberNewOrder(em, order.id, order.workspace.id, order.orderNumber);
    await this.changes.createdMany(
      em,
      'order',
      Order,
      orders.map((o) => o.id),
    );
  }

  /**
   * Saves the order and its shipment links. A new order is linked to the
   * workspace's shipments that already carry its number; `shipments` given
   * replaces the links, adding or removing the order number on the shipments.
   * Only the shipments it links or unlinks are read for their events.
   */
  async persist(order: Order, ctx: WriteContext<OrderWrite>): Promise<void> {
    const { em } = ctx;
    const given = has(ctx.body, 'shipments') ? (order.shipments ?? []).map((s) => s.id) : undefined;
    delete (order as Partial<Order>).shipments;
    delete (order as Partial<Order>).items;
    await em.save(order);
    const carrying =
      ctx.operation === 'post' && order.orderNumber
        ? await this.shipments.carryingOrderNumber(
            em,
            workspaceOf(order, ctx.state)!,
            order.orderNumber,
          )
        : [];
    await this.link(order, ctx, given, carrying);
  }

  /**
   * The saved order's shipment links: `given` (the body's `shipments`) replaces them, and a new
   * order gains those `carrying` its number; the shipments linked or unlinked get their events.
   */
  private async link(
    order: Order,
    ctx: WriteContext<OrderWrite>,
    given: string[] | undefined,
    carrying: readonly string[],
  ): Promise<void> {
    const { em } = ctx;
    const ref = { id: order.id, orderNumber: order.orderNumber };
    // A new order has no links yet.
    const existing =
      ctx.operation === 'post' ? [] : await this.shipments.linkedToOrder(em, order.id);
    const plan = planOrderLinks(existing, given, carrying);
    const shipmentsBefore = await this.shipmentEvents.watch(em, [...plan.unlinked, ...plan.linked]);
    await unlinkShipmentsFromOrder(em, ref, plan.unlinked);
    await linkShipmentsToOrder(em, ref, plan.wanted);
    // A new order without shipments has no items either: its aggregates are the columns'
    // defaults (not fulfilled, no shipment without tracking).
    if (ctx.operation !== 'post' || plan.wanted.length > 0)
      await this.orders.refreshAggregates(em, [order.id]);
    await this.shipmentEvents.indirectlyUpdated(em, shipmentsBefore, 'order');
  }

  /** `order.created` / `order.updated` in the write's transaction (src/events/README.md). */
  async afterWrite(order: Order, ctx: WriteContext<OrderWrite>): Promise<void> {
    if (ctx.operation === 'post') {
      if (order.workspace?.id)
        rememberNewOrder(ctx.em, order.id, order.workspace.id, order.orderNumber);
      await this.changes.created(ctx.em, 'order', Order, order.id);
    } else await this.changes.updated(ctx.em, 'order', Order, order.id, ctx.state.before);
  }

  /**
   * Deletes the order (its items go with it, and their shipment items): its
   * shipments lose the link and its number, and the notes on it go
   * (removeNotesOf). Every delete path of an order (DELETE,
   * delete_records_batch) runs this.
   */
  async remove(order: Order, ctx: WriteContext<OrderWrite>): Promise<void> {
    const { em } = ctx;
    const stored = (await this.orders.numbered(em, order.id))!;
    const shipments = await this.orders.shipmentsOf(em, order.id);
    const linked = shipments.filter((s) => s.linked).map((s) => s.shipmentId);
    const shipmentsBefore = await this.shipmentEvents.watch(
      em,
      shipments.map((s) => s.shipmentId),
    );
    await unlinkShipmentsFromOrder(em, { id: order.id, orderNumber: stored.orderNumber }, linked);
    await removeNotesOf(em, stored.workspaceId, 'orders', [order.id]);
    await this.orders.remove(em, order.id);
    await this.changes.deleted(em, 'order', order.id, ctx.state.before);
    await this.shipmentEvents.indirectlyUpdated(em, shipmentsBefore, 'order');
  }
}

/** The order's workspace: the stored one, else the one the POST gives. */
function workspaceOf(order: Order, state: OrderWrite): string | undefined {
  return state.storedWorkspaceId ?? order.workspace?.id;
}

function has(body: Record<string, unknown>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, name);
}
