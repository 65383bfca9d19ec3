import { randomUUID } from 'node:crypto';
import type { RecordSnapshot, RecordsBefore } from '../../src/events/record-change-events';
import { fulfillmentStatusOf } from '../../src/orders/fulfillment-status';
import type { Order } from '../../src/orders/order.entity';
import type { ShipmentOfOrder } from '../../src/orders/order-store';
import type { CatalogueTeams } from '../../src/products/product-store';
import type { StatusEntity } from '../../src/statuses/status.entity';
import type { StatusRow } from '../../src/statuses/status-store';

/**
 * In-memory stand-ins for the stores and event recorders the order records services use
 * (unit specs of OrdersService, OrderItemsService, ShipmentItemsService): the rows they
 * hold, and fakes answering as the stores' SQL does over them.
 */
export interface StoredOrder {
  id: string;
  workspaceId: string;
  orderNumber: string | null;
  integration: string | null;
  syncId: string | null;
  fulfillmentStatus: string;
  untracked: number;
}

export interface World {
  orders: Map<string, StoredOrder>;
  shipments: Map<
    string,
    { workspaceId: string; orderNumbers: string[]; trackingNumber: string | null }
  >;
  links: Array<{ shipmentId: string; orderId: string }>;
  items: Array<{
    id: string;
    orderId: string;
    workspaceId: string;
    qty: number;
    integration?: string | null;
    syncId?: string | null;
  }>;
  shipmentItems: Array<{ id: string; orderItemId: string; shipmentId: string; qty: number }>;
  statuses: Array<StatusRow & { code: string; title: string | null }>;
  products: Map<string, { teamId: string }>;
  variants: Map<string, { teamId: string; productId: string }>;
  workspaceTeams: Map<string, string>;
  /** Events recorded: [type, id]. */
  events: Array<[string, string]>;
  /** Each `watch` of shipments, with the ids watched. */
  watchedShipments: string[][];
  /** Each aggregates refresh, with the order ids. */
  refreshed: string[][];
  notesRemoved: Array<{ workspaceId: string; entity: string; ids: string[] }>;
  /** Sync-id checks made (each takes a lock). */
  syncIdChecks: number;
  /** Order items locked for a quantity check. */
  locked: string[];
}

export function newWorld(): World {
  return {
    orders: new Map(),
    shipments: new Map(),
    links: [],
    items: [],
    shipmentItems: [],
    statuses: [],
    products: new Map(),
    variants: new Map(),
    workspaceTeams: new Map(),
    events: [],
    watchedShipments: [],
    refreshed: [],
    notesRemoved: [],
    syncIdChecks: 0,
    locked: [],
  };
}

export class FakeRecords {
  constructor(readonly world: World) {}

  // --- rows -------------------------------------------------------------------------------

  addOrder(fields: Partial<StoredOrder> & { workspaceId: string }): string {
    const id = fields.id ?? randomUUID();
    this.world.orders.set(id, {
      orderNumber: null,
      integration: null,
      syncId: null,
      fulfillmentStatus: 'not_fulfilled',
      untracked: 0,
      ...fields,
      id,
    });
    return id;
  }

  addShipment(
    workspaceId: string,
    orderNumbers: string[],
    trackingNumber: string | null = 'TN',
  ): string {
    const id = randomUUID();
    this.world.shipments.set(id, { workspaceId, orderNumbers: [...orderNumbers], trackingNumber });
    return id;
  }

  addItem(orderId: string, qty: number): string {
    const id = randomUUID();
    const workspaceId = this.world.orders.get(orderId)!.workspaceId;
    this.world.items.push({ id, orderId, workspaceId, qty });
    return id;
  }

  addShipmentItem(orderItemId: string, shipmentId: string, qty: number): string {
    const id = randomUUID();
    this.world.shipmentItems.push({ id, orderItemId, shipmentId, qty });
    return id;
  }

  addStatus(workspaceId: string, entity: StatusEntity, code: string): string {
    const id = randomUUID();
    this.world.statuses.push({ id, workspaceId, entity, code, title: null });
    return id;
  }

  linkedTo(orderId: string): string[] {
    return this.world.links.filter((l) => l.orderId === orderId).map((l) => l.shipmentId);
  }

  /** What `em.save(order)` does to the order's row. */
  save(order: Order): Order {
    order.id ??= randomUUID();
    const stored = this.world.orders.get(order.id);
    this.world.orders.set(order.id, {
      id: order.id,
      workspaceId: stored?.workspaceId ?? order.workspace.id,
      orderNumber: stored ? stored.orderNumber : order.orderNumber,
      integration: stored ? stored.integration : order.externalSourceIntegration,
      syncId: stored ? stored.syncId : order.externalSourceSyncId,
      fulfillmentStatus: stored?.fulfillmentStatus ?? 'not_fulfilled',
      untracked: stored?.untracked ?? 0,
    });
    return order;
  }

  /** linkShipmentsToOrder (src/shipments/shipment-orders.ts) over the rows. */
  link(order: { id: string; orderNumber: string | null }, shipmentIds: string[]): Promise<void> {
    for (const shipmentId of shipmentIds) {
      if (!this.world.links.some((l) => l.orderId === order.id && l.shipmentId === shipmentId))
        this.world.links.push({ shipmentId, orderId: order.id });
      const numbers = this.world.shipments.get(shipmentId)!.orderNumbers;
      if (order.orderNumber && !numbers.includes(order.orderNumber))
        numbers.push(order.orderNumber);
    }
    return Promise.resolve();
  }

  /** unlinkShipmentsFromOrder over the rows. */
  unlink(order: { id: string; orderNumber: string | null }, shipmentIds: string[]): Promise<void> {
    this.world.links = this.world.links.filter(
      (l) => l.orderId !== order.id || !shipmentIds.includes(l.shipmentId),
    );
    for (const shipmentId of shipmentIds) {
      const shipment = this.world.shipments.get(shipmentId)!;
      shipment.orderNumbers = shipment.orderNumbers.filter((n) => n !== order.orderNumber);
    }
    return Promise.resolve();
  }

  private snapshotOf(id: string): RecordSnapshot | null {
    const order = this.world.orders.get(id);
    if (order) return { workspaceId: order.workspaceId, representation: { ...order } };
    const item = this.world.items.find((i) => i.id === id);
    if (item) return { workspaceId: item.workspaceId, representation: { ...item } };
    const shipmentItem = this.world.shipmentItems.find((i) => i.id === id);
    if (shipmentItem) {
      const workspaceId = this.world.shipments.get(shipmentItem.shipmentId)!.workspaceId;
      return { workspaceId, representation: { ...shipmentItem } };
    }
    return null;
  }

  // --- event recorders --------------------------------------------------------------------

  readonly changes = {
    snapshot: (_em: unknown, _target: unknown, id: string) => Promise.resolve(this.snapshotOf(id)),
    watch: (
      _em: unknown,
      _aggregate: string,
      _target: unknown,
      ids: Iterable<string | null | undefined>,
    ) => {
      const before: RecordsBefore = new Map();
      for (const id of ids) {
        const snapshot = id ? this.snapshotOf(id) : null;
        if (id && snapshot) before.set(id, snapshot);
      }
      return Promise.resolve(before);
    },
    indirectlyUpdated: (_em: unknown, aggregate: string, _t: unknown, before: RecordsBefore) => {
      for (const id of before.keys())
        this.world.events.push([`${aggregate}.updated(indirect)`, id]);
      return Promise.resolve();
    },
    created: (_em: unknown, aggregate: string, _t: unknown, id: string) => {
      this.world.events.push([`${aggregate}.created`, id]);
      return Promise.resolve();
    },
    updated: (_em: unknown, aggregate: string, _t: unknown, id: string) => {
      this.world.events.push([`${aggregate}.updated`, id]);
      return Promise.resolve();
    },
    deleted: (_em: unknown, aggregate: string, id: string) => {
      this.world.events.push([`${aggregate}.deleted`, id]);
      return Promise.resolve();
    },
  };

  readonly shipmentEvents = {
    watch: (_em: unknown, ids: Iterable<string>) => {
      const watched = [...ids];
      this.world.watchedShipments.push(watched);
      return Promise.resolve(new Map(watched.map((id) => [id, { id }])));
    },
    indirectlyUpdated: (_em: unknown, before: Map<string, unknown>) => {
      for (const id of before.keys()) this.world.events.push(['shipment.updated(indirect)', id]);
      return Promise.resolve();
    },
  };

  // --- stores -----------------------------------------------------------------------------

  /** OrderStore over the rows. */
  readonly orders = {
    refs: (_em: unknown, ids: readonly string[]) =>
      Promise.resolve(
        ids
          .filter((id) => this.world.orders.has(id))
          .map((id) => {
            const o = this.world.orders.get(id)!;
            return { id, orderNumber: o.orderNumber, workspaceId: o.workspaceId };
          }),
      ),
    byNumbers: (_em: unknown, workspaceId: string, numbers: readonly string[]) =>
      Promise.resolve(
        [...this.world.orders.values()]
          .filter(
            (o) =>
              o.workspaceId === workspaceId &&
              o.orderNumber !== null &&
              numbers.includes(o.orderNumber),
          )
          .map((o) => ({ id: o.id, orderNumber: o.orderNumber! })),
      ),
    /** Linked orders and those of the shipment's items. */
    ofShipment: (_em: unknown, shipmentId: string) => {
      const linked = this.world.links.filter((l) => l.shipmentId === shipmentId);
      const itemIds = this.world.shipmentItems
        .filter((si) => si.shipmentId === shipmentId)
        .map((si) => si.orderItemId);
      const ofItems = this.world.items.filter((i) => itemIds.includes(i.id));
      return Promise.resolve([
        ...new Set([...linked.map((l) => l.orderId), ...ofItems.map((i) => i.orderId)]),
      ]);
    },
    workspaceOf: (_em: unknown, id: string) =>
      Promise.resolve(this.world.orders.get(id)?.workspaceId ?? null),
    numbered: (_em: unknown, id: string) => {
      const order = this.world.orders.get(id);
      return Promise.resolve(
        order && { workspaceId: order.workspaceId, orderNumber: order.orderNumber },
      );
    },
    numberTaken: (_em: unknown, workspaceId: string, orderNumber: string) =>
      Promise.resolve(
        [...this.world.orders.values()].some(
          (o) => o.workspaceId === workspaceId && o.orderNumber === orderNumber,
        ),
      ),
    syncIdTaken: (
      _em: unknown,
      workspaceId: string,
      integration: string | null,
      syncId: string,
    ) => {
      this.world.syncIdChecks++;
      return Promise.resolve(
        [...this.world.orders.values()].some(
          (o) =>
            o.workspaceId === workspaceId && o.syncId === syncId && o.integration === integration,
        ),
      );
    },
    shipmentsOf: (_em: unknown, id: string): Promise<ShipmentOfOrder[]> => {
      const linked = this.linkedTo(id);
      const itemIds = this.world.items.filter((i) => i.orderId === id).map((i) => i.id);
      const carrying = this.world.shipmentItems
        .filter((si) => itemIds.includes(si.orderItemId))
        .map((si) => si.shipmentId);
      return Promise.resolve([
        ...linked.map((shipmentId) => ({ shipmentId, linked: true })),
        ...[...new Set(carrying)]
          .filter((s) => !linked.includes(s))
          .map((shipmentId) => ({ shipmentId, linked: false })),
      ]);
    },
    remove: (_em: unknown, id: string) => {
      this.world.orders.delete(id);
      const itemIds = this.world.items.filter((i) => i.orderId === id).map((i) => i.id);
      this.world.items = this.world.items.filter((i) => i.orderId !== id);
      this.world.shipmentItems = this.world.shipmentItems.filter(
        (si) => !itemIds.includes(si.orderItemId),
      );
      this.world.links = this.world.links.filter((l) => l.orderId !== id);
      return Promise.resolve();
    },
    /** The rule of the aggregates' SQL (fulfillmentStatusOf is its specification). */
    refreshAggregates: (_em: unknown, ids: readonly string[]) => {
      if (ids.length === 0) return Promise.resolve();
      this.world.refreshed.push([...ids]);
      for (const id of ids) {
        const order = this.world.orders.get(id);
        if (!order) continue;
        const items = this.world.items
          .filter((i) => i.orderId === id)
          .map((i) => ({
            qty: i.qty,
            fulfilledQty: this.world.shipmentItems
              .filter((si) => si.orderItemId === i.id)
              .reduce((sum, si) => sum + si.qty, 0),
          }));
        order.fulfillmentStatus = fulfillmentStatusOf(items);
        order.untracked = this.linkedTo(id).filter(
          (s) => this.world.shipments.get(s)!.trackingNumber === null,
        ).length;
      }
      return Promise.resolve();
    },
  };

  /** ShipmentRecordsStore over the rows. */
  readonly shipments = {
    workspacesOf: (_em: unknown, ids: readonly string[]) =>
      Promise.resolve(
        new Map(
          ids
            .filter((id) => this.world.shipments.has(id))
            .map((id) => [id, this.world.shipments.get(id)!.workspaceId]),
        ),
      ),
    linkedToOrder: (_em: unknown, orderId: string) => Promise.resolve(this.linkedTo(orderId)),
    carryingOrderNumber: (_em: unknown, workspaceId: string, orderNumber: string) =>
      Promise.resolve(
        [...this.world.shipments.entries()]
          .filter(([, s]) => s.workspaceId === workspaceId && s.orderNumbers.includes(orderNumber))
          .map(([id]) => id),
      ),
  };

  /** StatusStore over the rows. */
  readonly statuses = {
    byId: (_em: unknown, id: string) => {
      const status = this.world.statuses.find((s) => s.id === id);
      return Promise.resolve(
        status ? { id: status.id, workspaceId: status.workspaceId, entity: status.entity } : null,
      );
    },
    findOrCreate: (
      _em: unknown,
      workspaceId: string,
      entity: StatusEntity,
      code: string,
      title: string | null,
    ) => {
      let status = this.world.statuses.find(
        (s) => s.workspaceId === workspaceId && s.entity === entity && s.code === code,
      );
      if (!status) {
        status = { id: randomUUID(), workspaceId, entity, code, title };
        this.world.statuses.push(status);
      }
      return Promise.resolve(status.id);
    },
  };

  /** OrderItemStore over the rows. */
  readonly orderItems = {
    ordersOf: (_em: unknown, orderItemIds: readonly string[], shipmentId: string | null) => {
      const carried = this.world.shipmentItems
        .filter((si) => si.shipmentId === shipmentId)
        .map((si) => si.orderItemId);
      return Promise.resolve([
        ...new Set(
          this.world.items
            .filter((i) => orderItemIds.includes(i.id) || carried.includes(i.id))
            .map((i) => i.orderId),
        ),
      ]);
    },
    orderOf: (_em: unknown, id: string) =>
      Promise.resolve(this.world.items.find((i) => i.id === id)!.orderId),
    shipped: (_em: unknown, id: string) =>
      Promise.resolve(
        this.world.shipmentItems
          .filter((si) => si.orderItemId === id)
          .reduce((sum, si) => sum + si.qty, 0),
      ),
    lockForShipping: (_em: unknown, id: string) => {
      this.world.locked.push(id);
      const item = this.world.items.find((i) => i.id === id);
      return Promise.resolve(item && { workspaceId: item.workspaceId, qty: item.qty });
    },
    syncIdTaken: (
      _em: unknown,
      workspaceId: string,
      integration: string | null,
      syncId: string,
    ) => {
      this.world.syncIdChecks++;
      return Promise.resolve(
        this.world.items.some(
          (i) =>
            i.workspaceId === workspaceId &&
            i.syncId === syncId &&
            (i.integration ?? null) === integration,
        ),
      );
    },
    removal: (_em: unknown, id: string) => {
      const item = this.world.items.find((i) => i.id === id);
      if (!item) return Promise.resolve(undefined);
      const shipmentIds = [
        ...new Set(
          this.world.shipmentItems.filter((si) => si.orderItemId === id).map((si) => si.shipmentId),
        ),
      ];
      return Promise.resolve({ orderId: item.orderId, workspaceId: item.workspaceId, shipmentIds });
    },
    remove: (_em: unknown, id: string) => {
      this.world.items = this.world.items.filter((i) => i.id !== id);
      this.world.shipmentItems = this.world.shipmentItems.filter((si) => si.orderItemId !== id);
      return Promise.resolve();
    },
  };

  /** ProductStore over the rows. */
  readonly products = {
    catalogueTeams: (
      _em: unknown,
      workspaceId: string,
      productId: string | null,
      variantId: string | null,
    ): Promise<CatalogueTeams> => {
      const variant = variantId ? this.world.variants.get(variantId) : undefined;
      return Promise.resolve({
        teamId: this.world.workspaceTeams.get(workspaceId) ?? null,
        productTeam: (productId && this.world.products.get(productId)?.teamId) || null,
        variantTeam: variant?.teamId ?? null,
        variantProduct: variant?.productId ?? null,
      });
    },
  };

  /** ShipmentItemStore's quantity read over the rows. */
  readonly shipmentItems = {
    shipmentsOf: (_em: unknown, ids: readonly string[]) =>
      Promise.resolve(
        new Map(
          this.world.shipmentItems
            .filter((si) => ids.includes(si.id))
            .map((si) => [si.id, si.shipmentId]),
        ),
      ),
    removeLeftOut: (_em: unknown, shipmentId: string, keptIds: readonly string[]) => {
      const removed = this.world.shipmentItems.filter(
        (si) => si.shipmentId === shipmentId && !keptIds.includes(si.id),
      );
      this.world.shipmentItems = this.world.shipmentItems.filter((si) => !removed.includes(si));
      return Promise.resolve(
        removed.map((si) => {
          const item = this.world.items.find((i) => i.id === si.orderItemId)!;
          return { id: si.id, workspace_id: item.workspaceId, order_id: item.orderId };
        }),
      );
    },
    shippedByOthers: (_em: unknown, orderItemId: string, exceptId: string | null) =>
      Promise.resolve(
        this.world.shipmentItems
          .filter((si) => si.orderItemId === orderItemId && si.id !== exceptId)
          .reduce((sum, si) => sum + si.qty, 0),
      ),
  };
}
