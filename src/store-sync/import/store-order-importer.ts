import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource, type EntityManager } from 'typeorm';
import type { Principal } from '../../access/principal';
import { BATCH_ENTITIES } from '../../batches/batch-entities';
import { reuseGenericPlans } from '../../database/query';
import { withDeferredEvents } from '../../events/outbox';
import { HydraApi } from '../../hydra/controller/hydra-api';
import type { ResourceHooks } from '../../hydra/core/resource-hooks';
import type { ResourceMeta } from '../../hydra/core/resource-meta';
import { QueryParams } from '../../hydra/core/query-params';
import { rowError } from '../../imports/imports.service';
import { OrderUpdatesAtEnd } from '../../orders/order-updates-at-end';
import { ShipmentItem } from '../../shipment-items/shipment-item.entity';
import { ShipmentItemsService } from '../../shipment-items/shipment-items.service';
import { ShipmentsCreatedAtEnd } from '../../shipments/shipments-created-at-end';
import { statusCodeInput } from '../../statuses/status-references';
import { StatusStore } from '../../statuses/status-store';
import { planOrderImport, type ImportPlan } from '../rules/import-plan';
import {
  mapStoreOrder,
  type ImportedOrderRecords,
  type ImportProblem,
} from '../rules/order-mapping';
import { plannedOutcome, type OrderImportOutcome } from '../rules/run-report';
import type { StoreOrder, StorePlatformType } from '../store-platform';
import { StoreSyncRecordStore, type RecordLink } from '../sync/store-sync-record-store';
import { itemBody, orderBody, REDACTED_ADDRESS, shipmentBody } from './import-bodies';

/** Who imports, into what: one run's (or one webhook's) import scope. */
export interface ImportScope {
  readonly workflowId: string;
  readonly workspaceId: string;
  readonly platform: StorePlatformType;
  /** The workflow acting in its workspace (store-sync-principal.ts). */
  readonly principal: Principal;
  /**
   * The status a new shipment gets when imported is sent back to the store; false during the
   * first backfill (the store knows its old parcels).
   */
  readonly announceInitial: boolean;
}

type Kind = 'orders' | 'order_items' | 'shipments';

/** What an order's import leaves to record in store_sync_record (StoreSyncRecordStore.saveMany). */
interface SavedRecords {
  storeOrderId: string;
  links: RecordLink[];
  replaces: Array<{ kind: RecordLink['kind']; storeId: string }>;
}

/** A new order of a share and its lines, created together (createShare). */
interface CreatedOrder {
  orderId: string;
  /** In the order of the plan's lines. */
  itemIds: string[];
}

/** Order statuses remembered as created (StoreOrderImporter.prepareStatuses), at most. */
const STATUSES_REMEMBERED = 10_000;

/** A new parcel of a share and the items its POST would carry, written at the share's end. */
interface ParcelItems {
  shipmentId: string;
  items: ReadonlyArray<Record<string, unknown>>;
}

/** A record whose write failed: reported under the store record's id. */
class RecordFailed extends Error {
  constructor(
    readonly storeRecordId: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Imports one store order through the public write pipeline, as `POST /orders`,
 * `POST /order_items` and `POST /shipments` (with its items) would, each with its resource's
 * own rules (plan limits, carrier detection, tracking on create, events); later imports `PUT`
 * what the store changed and `DELETE` what it dropped, all in one transaction per order. A
 * refused line or parcel is reported and skipped (a savepoint); a refused order fails alone.
 * What was imported is recorded by store id (store_sync_record), so importing an order again
 * writes nothing unless the store changed it.
 */
@Injectable()
export class StoreOrderImporter {
  private hooks?: Record<Kind, ResourceHooks>;
  private updatesAtEnd?: OrderUpdatesAtEnd;
  private itemsService?: ShipmentItemsService;
  private createdAtEnd?: ShipmentsCreatedAtEnd;
  /** Workspace and code of the order statuses prepareStatuses saw created. */
  private readonly statusesCreated = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly moduleRef: ModuleRef,
    private readonly api: HydraApi,
    private readonly records: StoreSyncRecordStore,
    private readonly statuses: StatusStore,
  ) {}

  async import(scope: ImportScope, store: StoreOrder): Promise<OrderImportOutcome> {
    const records = mapStoreOrder(store);
    const options = { parcelIdsFollowNumbers: scope.platform === 'woocommerce' };
    // Items of shipments about to be rewritten, read before the transaction (the pool), so
    // their PUT keeps them by id; the lease keeps other imports of this workflow away.
    const before = planOrderImport(
      records,
      await this.records.ofOrder(this.dataSource, scope.workflowId, store.id, false),
      options,
    );
    const itemsOf = await this.currentItems(scope, before);
    const attempt = (guarded: boolean) =>
      this.dataSource.transaction(async (em) => {
        const links = await this.records.ofOrder(em, scope.workflowId, store.id);
        const plan = planOrderImport(records, links, options);
        if (plan.unchanged) return plannedOutcome(plan, records.problems, new Set());
        // Its lines and parcels name the order, the workflow and the workspace: checked once.
        this.api.data.rememberVisible(em);
        await reuseGenericPlans(em);
        // The order's events (a dozen for a new one) go in one statement before the commit.
        return withDeferredEvents(em, async () => {
          const { outcome, saved } = await this.write(
            em,
            scope,
            store.id,
            plan,
            records.problems,
            itemsOf,
            guarded,
          );
          await this.records.saveMany(em, scope.workflowId, [saved], scope.announceInitial);
          return outcome;
        });
      });
    try {
      // Refusals are rare: first without a savepoint per record (two statements each), and
      // only when a line or parcel is refused, again with them, to import the rest.
      try {
        return await attempt(false);
      } catch (error) {
        if (error instanceof RecordFailed || rowError(error) === null) throw error;
        return await attempt(true);
      }
    } catch (error) {
      const message = error instanceof RecordFailed ? error.message : (rowError(error) ?? null);
      if (message === null) throw error;
      return {
        order: 'failed',
        shipmentsCreated: 0,
        shipmentsUpdated: 0,
        shipmentsMoved: 0,
        shipmentsRemoved: 0,
        problems: [
          {
            storeRecordId: error instanceof RecordFailed ? error.storeRecordId : store.id,
            message,
          },
          ...records.problems,
        ],
      };
    }
  }

  /**
   * Imports several store orders (a page's share) in one transaction: their locks and records
   * read in two statements, the references they share checked once, their events written in
   * one statement, one commit. If any of them is refused (or the transaction fails, say a
   * deadlock with another share over a status both create), nothing of it stays and each is
   * imported again on its own (`import`): a refused order fails alone, as before. Outcomes in
   * the orders' order.
   */
  async importMany(
    scope: ImportScope,
    stores: readonly StoreOrder[],
  ): Promise<OrderImportOutcome[]> {
    const ids = stores.map((s) => s.id);
    const one = async () => {
      const outcomes: OrderImportOutcome[] = [];
      for (const store of stores) outcomes.push(await this.import(scope, store));
      return outcomes;
    };
    if (stores.length <= 1 || new Set(ids).size !== ids.length) return one();
    const mapped = stores.map((store) => mapStoreOrder(store));
    const options = { parcelIdsFollowNumbers: scope.platform === 'woocommerce' };
    const linksBefore = await this.records.ofStoreOrders(
      this.dataSource,
      scope.workflowId,
      ids,
      false,
    );
    const itemsOf = new Map<string, Array<{ id: string; orderItemId: string }>>();
    for (const [i, records] of mapped.entries()) {
      const before = planOrderImport(records, linksBefore.get(ids[i])!, options);
      for (const [id, items] of await this.currentItems(scope, before)) itemsOf.set(id, items);
    }
    await this.prepareStatuses(scope, mapped);
    try {
      return await this.dataSource.transaction(async (em) => {
        this.api.data.rememberVisible(em);
        await reuseGenericPlans(em);
        const links = await this.records.ofStoreOrders(em, scope.workflowId, ids);
        return withDeferredEvents(em, async () => {
          const outcomes: OrderImportOutcome[] = [];
          const saved: SavedRecords[] = [];
          const plans = mapped.map((records, i) =>
            planOrderImport(records, links.get(ids[i])!, options),
          );
          const created = await this.createShare(em, scope, plans);
          // Its orders all new: their parcels' order updates once at the share's end.
          const atEnd = created.size > 0 ? this.orderUpdates().start(em) : null;
          // The new orders with parcels as they are before the first parcel, in one read.
          if (atEnd)
            await this.orderUpdates().watch(
              em,
              atEnd.pending,
              [...created].flatMap(([i, c]) => (plans[i].shipments.length > 0 ? [c.orderId] : [])),
            );
          // Their parcels' items, written together after the last parcel (one batch of creates),
          // and the parcels' `shipment.created`, read with their items after that.
          const parcelItems: ParcelItems[] = [];
          const parcels = atEnd ? this.shipmentsCreated().start(atEnd.runner) : null;
          for (const [i, records] of mapped.entries()) {
            const plan = plans[i];
            if (plan.unchanged) {
              outcomes.push(plannedOutcome(plan, records.problems, new Set()));
              continue;
            }
            const written = await this.write(
              em,
              scope,
              ids[i],
              plan,
              records.problems,
              itemsOf,
              false,
              created.get(i) ?? null,
              parcels ? { runner: parcels.runner, items: parcelItems } : undefined,
            );
            outcomes.push(written.outcome);
            saved.push(written.saved);
          }
          if (atEnd && parcels) {
            // Their orders are the share's new ones, whose updates `finish` records.
            await this.shipmentItems().createForShipments(
              parcels.runner,
              parcelItems,
              [...created.values()].map((c) => c.orderId),
              scope.principal,
            );
            await this.shipmentsCreated().finish(em, parcels.pending);
            await this.orderUpdates().finish(em, atEnd.pending);
          }
          // The share's store sync records in one statement (nothing in it reads them back).
          await this.records.saveMany(em, scope.workflowId, saved, scope.announceInitial);
          return outcomes;
        });
      });
    } catch {
      // Refused somewhere (or a deadlock): all undone; each again alone, reported as before.
      return one();
    }
  }

  /**
   * The order statuses a share names, created before its transaction, each committed at once
   * (a status is the workspace's configuration, made as its store names it). Created inside
   * the share, a new status was held by the first share naming it until that share committed:
   * the shares beside it waited on the status's unique index, and two shares creating two
   * statuses in opposite orders deadlocked, one of them then imported order by order.
   * Remembered by workspace and code, so later shares send nothing; one deleted meanwhile is
   * created again by the order's own write.
   */
  private async prepareStatuses(
    scope: ImportScope,
    mapped: readonly ImportedOrderRecords[],
  ): Promise<void> {
    for (const { order } of mapped) {
      if (!order.orderStatus) continue;
      let status: { code: string; title: string | null };
      try {
        status = statusCodeInput(order.orderStatus, 'orderStatus');
      } catch {
        continue; // The order's write refuses it, with the violation.
      }
      const key = `${scope.workspaceId}\u0000${status.code}`;
      if (this.statusesCreated.has(key)) continue;
      await this.statuses.findOrCreate(
        this.dataSource,
        scope.workspaceId,
        'orders',
        status.code,
        status.title,
      );
      if (this.statusesCreated.size >= STATUSES_REMEMBERED) this.statusesCreated.clear();
      this.statusesCreated.add(key);
    }
  }

  /**
   * The new orders of a share created together, as a batch of POST /orders (one INSERT, their
   * numbers and store ids checked at once), then all their lines, as one batch of
   * POST /order_items, when every order the share writes is new (a backfill's): its orders and
   * lines then come before their parcels, and nothing of one new order reads another's (a
   * parcel carries its own order's number and lines only). A share that also changes orders
   * keeps the order-by-order writes. Their ids by the plans' index, the lines' in the order
   * of the plan's lines to write.
   */
  private async createShare(
    em: EntityManager,
    scope: ImportScope,
    plans: readonly ImportPlan[],
  ): Promise<Map<number, CreatedOrder>> {
    const created = new Map<number, CreatedOrder>();
    const changed = plans.flatMap((plan, i) => (plan.unchanged ? [] : [i]));
    const allNew = changed.every(
      (i) =>
        plans[i].order.write &&
        !plans[i].order.existing &&
        plans[i].items.every((item) => item.write && !item.existing),
    );
    if (!allNew || changed.length < 2) return created;
    const orderIds = await this.api.writer.createManyWithin(
      em,
      this.resource('orders'),
      changed.map((i) => ({ body: orderBody(plans[i].order.record, scope, true), pathPrefix: '' })),
      scope.principal,
      this.hooksOf('orders'),
    );
    const workflowIri = `/workflows/${scope.workflowId}`;
    const lines = changed.flatMap((i, n) =>
      plans[i].items.map((item) => ({
        body: itemBody(item.record, `/orders/${orderIds[n]}`, workflowIri, true),
        pathPrefix: '',
      })),
    );
    const itemIds =
      lines.length > 0
        ? await this.api.writer.createManyWithin(
            em,
            this.resource('order_items'),
            lines,
            scope.principal,
            this.hooksOf('order_items'),
          )
        : [];
    let next = 0;
    for (const [n, i] of changed.entries()) {
      const count = plans[i].items.length;
      created.set(i, { orderId: orderIds[n], itemIds: itemIds.slice(next, next + count) });
      next += count;
    }
    return created;
  }

  private async write(
    em: EntityManager,
    scope: ImportScope,
    storeOrderId: string,
    plan: ImportPlan,
    mappingProblems: readonly ImportProblem[],
    itemsOf: ReadonlyMap<string, ReadonlyArray<{ id: string; orderItemId: string }>>,
    guarded: boolean,
    /** The order and its lines, when the share created them already (createShare). */
    created: CreatedOrder | null = null,
    /**
     * A share's new parcels (OrderUpdatesAtEnd): the runner whose order updates wait for its
     * end, and where each parcel leaves the items its POST would carry.
     */
    share?: { runner: EntityManager; items: ParcelItems[] },
  ): Promise<{ outcome: OrderImportOutcome; saved: SavedRecords }> {
    const problems = [...mappingProblems];
    /** A line's or parcel's write: refused, reported (guarded) or the whole attempt undone. */
    const recordWrite = <T>(write: () => Promise<T>) =>
      guarded ? this.savepoint(em, write) : write();
    const saved: RecordLink[] = [];
    const replaced: Array<{ kind: RecordLink['kind']; storeId: string }> = [];
    const workflowIri = `/workflows/${scope.workflowId}`;

    // The order: refused, the whole order fails (its lines and parcels need it).
    let orderId = plan.order.existing?.recordId ?? created?.orderId ?? null;
    if (created) {
      saved.push(
        link('order', plan.order.record.externalSourceSyncId, orderId!, plan.order.digest),
      );
    } else if (plan.order.write) {
      try {
        orderId = await this.upsert(em, scope, 'orders', orderId, (creating) =>
          orderBody(plan.order.record, scope, creating),
        );
      } catch (error) {
        throw new RecordFailed(storeOrderId, this.reason(error));
      }
      saved.push(link('order', plan.order.record.externalSourceSyncId, orderId, plan.order.digest));
    }
    const orderIri = `/orders/${orderId!}`;

    // Lines: a refused one is reported; the parcels then leave it out.
    const itemIds = new Map<string, string>();
    const written = plan.items.filter((item) => item.write);
    if (created) {
      for (const [i, item] of written.entries()) {
        itemIds.set(item.record.externalSourceSyncId, created.itemIds[i]);
        saved.push(
          link('order_item', item.record.externalSourceSyncId, created.itemIds[i], item.digest),
        );
      }
    } else if (!guarded && written.length > 0 && written.every((item) => !item.existing)) {
      // New lines only (a new order's): written together, as a batch of POST /order_items.
      const ids = await this.api.writer.createManyWithin(
        em,
        this.resource('order_items'),
        written.map((item) => ({
          body: itemBody(item.record, orderIri, workflowIri, true),
          pathPrefix: '',
        })),
        scope.principal,
        this.hooksOf('order_items'),
      );
      for (const [i, item] of written.entries()) {
        itemIds.set(item.record.externalSourceSyncId, ids[i]);
        saved.push(link('order_item', item.record.externalSourceSyncId, ids[i], item.digest));
      }
    }
    for (const item of plan.items) {
      if (item.existing) itemIds.set(item.record.externalSourceSyncId, item.existing.recordId);
      if (!item.write || itemIds.has(item.record.externalSourceSyncId)) continue;
      try {
        const id = await recordWrite(() =>
          this.upsert(em, scope, 'order_items', item.existing?.recordId ?? null, (creating) =>
            itemBody(item.record, orderIri, workflowIri, creating),
          ),
        );
        itemIds.set(item.record.externalSourceSyncId, id);
        saved.push(link('order_item', item.record.externalSourceSyncId, id, item.digest));
      } catch (error) {
        if (!guarded) throw error;
        itemIds.delete(item.record.externalSourceSyncId);
        problems.push({
          storeRecordId: item.record.externalSourceSyncId,
          message: this.reason(error),
        });
      }
    }

    // Parcels gone first (their items free quantities), then the others, existing ones first.
    for (const gone of plan.removedShipments) {
      await this.remove(em, scope, 'shipments', gone.recordId);
      replaced.push({ kind: 'shipment', storeId: gone.storeId });
    }
    const failed = new Set<string>();
    const ordered = [...plan.shipments].sort(
      (a, b) => Number(a.existing === null) - Number(b.existing === null),
    );
    for (const shipment of ordered) {
      if (!shipment.write) continue;
      const storeId = shipment.record.externalSourceSyncId;
      try {
        const body = (creating: boolean) =>
          shipmentBody(shipment, scope, orderIri, workflowIri, itemIds, itemsOf, creating);
        const id = await recordWrite(() =>
          share && !shipment.existing
            ? this.createParcel(share, scope, body(true))
            : this.upsert(em, scope, 'shipments', shipment.existing?.recordId ?? null, body),
        );
        if (shipment.existing && shipment.existing.storeId !== storeId)
          replaced.push({ kind: 'shipment', storeId: shipment.existing.storeId });
        saved.push({
          ...link('shipment', storeId, id, shipment.digest),
          trackingNumber: shipment.record.trackingNumber,
        });
      } catch (error) {
        if (!guarded) throw error;
        failed.add(storeId);
        problems.push({ storeRecordId: storeId, message: this.reason(error) });
      }
    }

    // Lines gone last: the parcels no longer carry them.
    for (const gone of plan.removedItems) {
      await this.remove(em, scope, 'order_items', gone.recordId);
      replaced.push({ kind: 'order_item', storeId: gone.storeId });
    }
    return {
      outcome: plannedOutcome(plan, problems, failed),
      saved: { storeOrderId, links: saved, replaces: replaced },
    };
  }

  /**
   * Blanks the personal data (e-mail, phone, names, street, postcode, city) of imported
   * orders and shipments, through their PUT (a customer's erasure request); the country stays.
   */
  async redact(
    principal: Principal,
    records: ReadonlyArray<{ kind: RecordLink['kind']; recordId: string }>,
  ): Promise<number> {
    let n = 0;
    await this.dataSource.transaction(async (em) => {
      for (const { kind, recordId } of records) {
        const scoped = { principal } as ImportScope;
        if (kind === 'order') {
          await this.upsert(em, scoped, 'orders', recordId, () => ({
            email: null,
            phoneNumber: null,
            shippingAddress: REDACTED_ADDRESS,
            billingAddress: REDACTED_ADDRESS,
          }));
          n++;
        } else if (kind === 'shipment') {
          await this.upsert(em, scoped, 'shipments', recordId, () => ({
            email: null,
            phoneNumber: null,
            address: REDACTED_ADDRESS,
          }));
          n++;
        }
      }
    });
    return n;
  }

  /** Deletes imported records through their DELETE rules: shipments, then lines, then orders. */
  async removeImported(
    principal: Principal,
    records: ReadonlyArray<{ kind: RecordLink['kind']; recordId: string }>,
  ): Promise<number> {
    const order: Array<[RecordLink['kind'], Kind]> = [
      ['shipment', 'shipments'],
      ['order_item', 'order_items'],
      ['order', 'orders'],
    ];
    let n = 0;
    await this.dataSource.transaction(async (em) => {
      for (const [kind, collection] of order)
        for (const record of records.filter((r) => r.kind === kind)) {
          await this.remove(em, { principal } as ImportScope, collection, record.recordId);
          n++;
        }
    });
    return n;
  }

  /**
   * A new parcel of a share, POSTed without its items: they join the share's (`share.items`),
   * written together once every parcel is (ShipmentItemsService.createForShipments).
   */
  private async createParcel(
    share: { runner: EntityManager; items: ParcelItems[] },
    scope: ImportScope,
    body: Record<string, unknown>,
  ): Promise<string> {
    const { shipmentItems, ...parcel } = body;
    const id = await this.api.writer.createWithin(
      share.runner,
      this.resource('shipments'),
      parcel,
      scope.principal,
      this.hooksOf('shipments'),
    );
    share.items.push({ shipmentId: id, items: shipmentItems as Array<Record<string, unknown>> });
    return id;
  }

  /** Creates (POST) or replaces (PUT) a record through its resource's pipeline; its id. */
  private async upsert(
    em: EntityManager,
    scope: ImportScope,
    kind: Kind,
    id: string | null,
    body: (creating: boolean) => Record<string, unknown>,
  ): Promise<string> {
    const resource = this.resource(kind);
    if (id === null)
      return this.api.writer.createWithin(
        em,
        resource,
        body(true),
        scope.principal,
        this.hooksOf(kind),
      );
    await this.api.writer.replaceWithin(
      em,
      resource,
      id,
      body(false),
      scope.principal,
      this.hooksOf(kind),
    );
    return id;
  }

  /** DELETE through the record's rules (notes, order fulfilment, events), if it is still there. */
  private async remove(em: EntityManager, scope: ImportScope, kind: Kind, id: string) {
    const resource = this.resource(kind);
    if (!(await this.api.data.visible(resource, scope.principal, id, em))) return;
    await this.api.writer.removeWithin(em, resource, { id }, scope.principal, this.hooksOf(kind));
  }

  /** A write that may be refused without undoing the rest of the order's transaction. */
  private savepoint<T>(em: EntityManager, write: () => Promise<T>): Promise<T> {
    return em.transaction(() => write());
  }

  /** The shipment items of shipments about to be rewritten: their ids by order item. */
  private async currentItems(
    scope: ImportScope,
    plan: ImportPlan,
  ): Promise<Map<string, Array<{ id: string; orderItemId: string }>>> {
    const out = new Map<string, Array<{ id: string; orderItemId: string }>>();
    const resource = this.api.resource(ShipmentItem);
    for (const shipment of plan.shipments) {
      if (!shipment.write || !shipment.existing) continue;
      const id = shipment.existing.recordId;
      const page = await this.api.data.list({
        resource,
        principal: scope.principal,
        params: QueryParams.fromUrl('?itemsPerPage=1000'),
        scope: [{ path: 'shipment', id }],
        maxItemsPerPage: 1000,
      });
      out.set(
        id,
        page.members.map((m) => ({
          id: String(m.id),
          orderItemId:
            String(m.orderItem ?? '')
              .split('/')
              .pop() ?? '',
        })),
      );
    }
    return out;
  }

  private shipmentsCreated(): ShipmentsCreatedAtEnd {
    return (this.createdAtEnd ??= this.moduleRef.get(ShipmentsCreatedAtEnd, { strict: false }));
  }

  private shipmentItems(): ShipmentItemsService {
    return (this.itemsService ??= this.moduleRef.get(ShipmentItemsService, { strict: false }));
  }

  private orderUpdates(): OrderUpdatesAtEnd {
    return (this.updatesAtEnd ??= this.moduleRef.get(OrderUpdatesAtEnd, { strict: false }));
  }

  private resource(kind: Kind): ResourceMeta {
    return this.api.resource(BATCH_ENTITIES[kind].target);
  }

  private hooksOf(kind: Kind): ResourceHooks {
    this.hooks ??= {
      orders: this.moduleRef.get<ResourceHooks>(BATCH_ENTITIES.orders.hooks, { strict: false }),
      order_items: this.moduleRef.get<ResourceHooks>(BATCH_ENTITIES.order_items.hooks, {
        strict: false,
      }),
      shipments: this.moduleRef.get<ResourceHooks>(BATCH_ENTITIES.shipments.hooks, {
        strict: false,
      }),
    };
    return this.hooks[kind];
  }

  /** Why a write was refused, as a client would have been told. */
  private reason(error: unknown): string {
    const message = rowError(error);
    if (message === null) throw error;
    return message;
  }
}

function link(
  kind: RecordLink['kind'],
  storeId: string,
  recordId: string,
  digest: string,
): RecordLink {
  return { kind, storeId, recordId, digest, trackingNumber: null };
}
