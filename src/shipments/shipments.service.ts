import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { OutboxEvent } from '../events/outbox';
import { announcedByCaller } from '../events/indirect-changes';
import { RecordChangeEvents, type RecordsBefore } from '../events/record-change-events';
import { identifierFrom } from '../hydra/core/identifiers';
import { normalizeAddress } from '../addresses/address-rules';
import { ValidationError, Violation, ViolationCodes } from '../common/errors/api-errors';
import type { ApiRecord } from '../hydra/core/api-record';
import { referenceNotFound } from '../hydra/write/denormalizer';
import {
  type NestedElement,
  type ResourceHooks,
  type WriteContext,
} from '../hydra/core/resource-hooks';
import { checkStatusReference, findOrCreateStatus } from '../statuses/status-references';
import { Status } from '../statuses/status.entity';
import {
  ordersOfShipment,
  refreshingOnce,
  refreshOrderAggregates,
} from '../orders/order-aggregates';
import { Order } from '../orders/order.entity';
import { removeNotesOf, removeNotesOfDeleted } from '../notes/record-notes';
import { decideOriginCarrier } from './shipment-carrier';
import { ShipmentEvents, type ShipmentSnapshot } from './shipment-events';
import {
  completeShipmentOrders,
  linkedOrders,
  loadOrders,
  ordersByNumbers,
  planShipmentOrders,
  replaceShipmentLinks,
  type OrderRef,
} from './shipment-orders';
import { DUPLICATE_TRACKING_NUMBER, Shipment } from './shipment.entity';
import { ShipmentStore, type DependentInsert, type ShipmentCreation } from './shipment-store';
import { blankToNull } from './text-input';
import { checkWorkflowReferences } from './workflow-references';

/** What a write did to a shipment, for those who react to it (tracking). */
export interface ShipmentWriteEvent {
  shipment: Shipment;
  operation: 'post' | 'put';
  /** True on create with a number, and on a PUT that set or changed it. */
  trackingNumberChanged: boolean;
  previousTrackingNumber: string | null;
  /** The write's transaction: work done here commits or rolls back with it. */
  em: EntityManager;
  /**
   * A listener that writes the shipment's row (or its order links or items) calls this, so
   * `shipment.created` reads the shipment again instead of using the snapshot its INSERT read.
   */
  rowChanged(): void;
}

export type ShipmentWriteListener = (event: ShipmentWriteEvent) => Promise<void> | void;

/** A shipment about to be created: what its tracking is computed from. */
export interface NewShipment {
  id: string;
  workspaceId: string;
  teamId: string;
  trackingNumber: string | null;
  originCarrier: string | null;
  /** The `created_at` its row gets (the transaction's time). */
  createdAt: Date;
}

/** The tracking of a new shipment, decided before its row is inserted. */
export interface NewShipmentTracking {
  /** Columns of the row (by column name): the tracking fields, the next check. */
  columns: Record<string, unknown>;
  /**
   * Rows that refer to the new one (its checkpoints), as one INSERT taking one parameter
   * (`sql(placeholder)`, `param`), written by the row's own INSERT statement.
   */
  dependents?: DependentInsert | null;
  /** Writes what else refers to the row (a tracking job), once it exists. */
  afterInsert?(em: EntityManager): Promise<void>;
  /** Events recorded with `shipment.created`, in the same statement (the status change). */
  events: OutboxEvent[];
}

/**
 * Decides the tracking of a shipment being created, in its transaction (the tracking module
 * provides it; it depends on this one, so it registers itself): one INSERT then carries the
 * tracking fields, instead of an INSERT and an UPDATE.
 */
export type NewShipmentTracker = (
  shipment: NewShipment,
  em: EntityManager,
) => Promise<NewShipmentTracking>;

/**
 * A rule of another module on new shipments that reads what it needs with the create's first
 * statement (ShipmentStore.creation) instead of a statement of its own: the plan limit.
 */
export interface CreationCheck {
  /** One aliased SELECT-list entry over the workspace row `w`; its value comes back in `row`. */
  column: string;
  /** Violations from what was read; asked once the shipment's own rules passed. */
  violations(row: Record<string, unknown>, ctx: WriteContext): Violation[] | Promise<Violation[]>;
}

/** A create's state between the pipeline's steps. */
interface Creating {
  creation: ShipmentCreation;
  tracking?: NewShipmentTracking;
  /** The created shipment as the API shows it (read for `shipment.created`). */
  record?: ApiRecord;
  /** The snapshot read with the INSERT, while nothing else has written the shipment. */
  inserted?: ShipmentSnapshot;
}

/**
 * Writes the shipment items given as objects in a shipment's body (`shipmentItems`), after
 * the shipment is saved, in its transaction. The shipment items module provides it (it
 * depends on this one, so it registers itself).
 */
export type NestedItemsWriter = (
  shipmentId: string,
  elements: NestedElement[],
  ctx: WriteContext,
) => Promise<void>;

interface StoredState {
  workspaceId: string;
  trackingNumber: string | null;
  originCarrier: string | null;
  orderNumbers: string[];
  /** The shipment as the API showed it before the PUT, to name what changed. */
  snapshot: ShipmentSnapshot | null;
}

/**
 * Shipment rules: trimmed tracking numbers unique per workspace, carrier
 * identification, embedded status find-or-create, contact validation.
 * Others hook in with `onWrite` (the tracking engine fills the tracking
 * fields in the same transaction when the number changes). Creates, changes
 * and deletes go to the outbox as `shipment.created|updated|deleted` in the
 * write's transaction (ShipmentEvents), and the orders whose representation
 * the write changed (links, fulfilment, shipments without tracking) as
 * `order.updated` with `cause: "shipment"` (RecordChangeEvents).
 */
@Injectable()
export class ShipmentsService implements ResourceHooks<Shipment> {
  private readonly listeners: ShipmentWriteListener[] = [];
  private readonly stored = new WeakMap<Shipment, StoredState>();
  private readonly creating = new WeakMap<Shipment, Creating>();
  private nestedItemsWriter?: NestedItemsWriter;
  private newShipmentTracker?: NewShipmentTracker;
  private readonly creationChecks: CreationCheck[] = [];
  /** A create reads its workspace's row anyway (ShipmentStore.creation), missing or not. */
  readonly checksReferences = ['workspace'];

  constructor(
    private readonly events: ShipmentEvents,
    private readonly store: ShipmentStore,
    private readonly orderEvents: RecordChangeEvents,
  ) {}

  /**
   * Registers a rule of another module on new shipments, read with the create's first
   * statement; register at start-up (the statement's shape is then fixed).
   */
  checkOnCreate(check: CreationCheck): void {
    this.creationChecks.push(check);
  }

  /** Registers who decides the tracking of new shipments (the tracking module). */
  trackNewWith(tracker: NewShipmentTracker): void {
    this.newShipmentTracker = tracker;
  }

  /** Registers who writes the items given as objects in `shipmentItems`. */
  writeNestedItemsWith(writer: NestedItemsWriter): void {
    this.nestedItemsWriter = writer;
  }

  /** Registers a listener called inside every shipment create/replace transaction. */
  onWrite(listener: ShipmentWriteListener): void {
    this.listeners.push(listener);
  }

  async prepare(shipment: Shipment, ctx: WriteContext): Promise<void> {
    if (ctx.operation === 'put') {
      const row = await this.store.stored(ctx.em, shipment.id);
      this.stored.set(shipment, {
        workspaceId: row.workspace_id,
        trackingNumber: row.tracking_number,
        originCarrier: row.origin_carrier,
        orderNumbers: row.order_numbers,
        snapshot: await this.events.snapshot(ctx.em, shipment.id),
      });
    }
    shipment.trackingNumber = trimTrackingNumber(shipment.trackingNumber);
    shipment.email = blankToNull(shipment.email);
    shipment.phoneNumber = blankToNull(shipment.phoneNumber);
    shipment.originCarrier = blankToNull(shipment.originCarrier);
    shipment.externalSourceSyncId = blankToNull(shipment.externalSourceSyncId);
    shipment.fulfillmentSyncId = blankToNull(shipment.fulfillmentSyncId);
    shipment.orderNumbers = cleanOrderNumbers(shipment.orderNumbers);
    normalizeAddress(shipment.address);

    const previous = this.stored.get(shipment);
    if (previous) {
      const numberChanged = shipment.trackingNumber !== previous.trackingNumber;
      // originCarrier is given once: kept while the tracking number stays;
      // a new number is identified again (from the body or the number).
      if (!numberChanged && previous.originCarrier !== null) {
        shipment.originCarrier = previous.originCarrier;
      } else if (
        numberChanged &&
        !Object.prototype.hasOwnProperty.call(ctx.body, 'originCarrier')
      ) {
        shipment.originCarrier = null;
      }
    }

    const statusInput = ctx.nested.shipmentStatus;
    const workspaceId = this.workspaceIdOf(shipment);
    if (statusInput === null) shipment.shipmentStatus = null;
    else if (statusInput !== undefined && workspaceId) {
      const id = await findOrCreateStatus(
        ctx.em,
        workspaceId,
        'shipments',
        statusInput,
        'shipmentStatus',
      );
      shipment.shipmentStatus = { id } as Status;
    }
  }

  async validate(shipment: Shipment, ctx: WriteContext): Promise<Violation[]> {
    const workspaceId = this.workspaceIdOf(shipment)!;
    const violations: Violation[] = [];
    if (ctx.operation === 'post') {
      violations.push(
        ...(await checkWorkflowReferences(ctx.em, workspaceId, shipment, 'shipment')),
      );
    }
    if (
      shipment.shipmentStatus?.id &&
      ctx.nested.shipmentStatus === undefined &&
      Object.prototype.hasOwnProperty.call(ctx.body, 'shipmentStatus')
    ) {
      try {
        await checkStatusReference(
          ctx.em,
          shipment.shipmentStatus.id,
          workspaceId,
          'shipments',
          'shipmentStatus',
        );
      } catch (error) {
        if (error instanceof ValidationError) violations.push(...error.violations);
        else throw error;
      }
    }
    const taken = await this.numberTaken(shipment, workspaceId, ctx);
    // The workspace, admitted from the caller's tenancy, was deleted meanwhile.
    if (taken === null) return [referenceNotFound('workspace', String(ctx.body.workspace))];
    if (taken) {
      violations.push({
        propertyPath: 'trackingNumber',
        message: DUPLICATE_TRACKING_NUMBER,
        code: ViolationCodes.unique,
      });
    }
    violations.push(...(await this.checkOrders(shipment, workspaceId, ctx)));
    violations.push(...(await this.checkItems(shipment, ctx)));
    if (violations.length) return violations;

    const previous = this.stored.get(shipment);
    const carrierFixed =
      previous !== undefined &&
      previous.originCarrier !== null &&
      shipment.originCarrier === previous.originCarrier &&
      shipment.trackingNumber === previous.trackingNumber;
    if (!carrierFixed) {
      const decision = decideOriginCarrier(shipment.trackingNumber, shipment.originCarrier);
      if ('violation' in decision) {
        throw new ValidationError(
          [decision.violation],
          decision.suggestedCarriers ? { suggestedCarriers: decision.suggestedCarriers } : {},
        );
      }
      shipment.originCarrier = decision.carrier;
    }
    return this.creationViolations(shipment, ctx);
  }

  /** The checks of other modules on a new shipment, the first refusing one deciding. */
  private async creationViolations(shipment: Shipment, ctx: WriteContext): Promise<Violation[]> {
    const creation = this.creating.get(shipment)?.creation;
    if (!creation) return [];
    for (const check of this.creationChecks) {
      const violations = await check.violations(creation.row, ctx);
      if (violations.length > 0) return violations;
    }
    return [];
  }

  /**
   * Saves the shipment, then its links to orders (kept consistent with
   * `orderNumbers`), the items a PUT left out (deleted), and the aggregates
   * of every order involved.
   */
  async persist(shipment: Shipment, ctx: WriteContext): Promise<void> {
    const { em } = ctx;
    const given = (name: string) => Object.prototype.hasOwnProperty.call(ctx.body, name);
    const givenOrderIds = given('orders') ? (shipment.orders ?? []).map((o) => o.id) : undefined;
    const keptItemIds = given('shipmentItems')
      ? (shipment.shipmentItems ?? []).map((i) => i.id)
      : undefined;
    // Relations are written below with SQL, not by TypeORM's cascade.
    delete (shipment as Partial<Shipment>).orders;
    delete (shipment as Partial<Shipment>).shipmentItems;

    const workspaceId = this.workspaceIdOf(shipment)!;
    const stored = this.stored.get(shipment);
    const existingLinks = stored ? await linkedOrders(em, shipment.id) : [];
    const plan = planShipmentOrders({
      existingLinks,
      existingNumbers: stored?.orderNumbers ?? [],
      givenOrders: givenOrderIds ? await loadOrders(em, givenOrderIds) : undefined,
      givenNumbers: given('orderNumbers') ? shipment.orderNumbers : undefined,
    });
    const linked = completeShipmentOrders(
      plan,
      await ordersByNumbers(em, workspaceId, plan.numbers),
    );
    shipment.orderNumbers = linked.numbers;
    const elements = ctx.nestedElements?.shipmentItems;
    const ordersBefore = await this.watchOrders(em, shipment, {
      stored,
      existingLinks,
      linked: linked.orders,
      itemsWritten: keptItemIds !== undefined || !!elements?.length,
      elements: elements ?? [],
    });
    if (stored) await em.save(shipment);
    else {
      // Nothing but the row itself before `shipment.created`: its INSERT reads the snapshot.
      const alone = linked.orders.length === 0 && !keptItemIds?.length && !elements?.length;
      await this.insertNew(shipment, workspaceId, em, alone);
    }
    await replaceShipmentLinks(
      em,
      shipment.id,
      linked.orders.map((o) => o.id),
      stored !== undefined,
    );

    const affected = [...existingLinks, ...linked.orders].map((o) => o.id);
    // A new shipment has no items yet: none to leave out.
    if (keptItemIds && stored) {
      // DELETE ... RETURNING answers [rows, count] through TypeORM.
      const [removed]: [Array<{ id: string; workspace_id: string; order_id: string }>, number] =
        await em.query(
          `DELETE FROM shipment_item si USING order_item oi
            WHERE si.shipment_id = $1 AND NOT (si.id = ANY($2::uuid[])) AND oi.id = si.order_item_id
            RETURNING si.id, si.workspace_id, oi.order_id`,
          [shipment.id, keptItemIds],
        );
      // The items left out go as DELETE /shipment_items/{id} would take them: with their notes.
      await removeNotesOfDeleted(em, 'shipment_items', removed);
      affected.push(...removed.map((r) => r.order_id));
    }
    // The orders are refreshed once, after the items this write gives (each would otherwise).
    await refreshingOnce(em, async (deferring) => {
      await refreshOrderAggregates(deferring, affected);
      if (!elements?.length) return;
      const writer = this.nestedItemsWriter;
      if (!writer) throw new Error('No writer for nested shipment items');
      // This write's own events tell what its items changed: theirs do not again.
      await announcedByCaller(
        deferring,
        [
          { aggregate: 'shipment', id: shipment.id },
          ...[...ordersBefore.keys()].map((id) => ({ aggregate: 'order' as const, id })),
        ],
        (announcing) => writer(shipment.id, elements, { ...ctx, em: announcing }),
      );
    });
    await this.orderEvents.indirectlyUpdated(em, 'order', Order, ordersBefore, 'shipment');
  }

  /**
   * The orders a create or replace may change, as they were before it: those it links or
   * unlinks (their `shipments`), its linked ones when the tracking number comes or goes (their
   * `shipmentsWithoutTrackingCount`), and, when it writes items, the orders of its items and
   * of the order items it ships (their `fulfillmentStatus`). Nothing read when it touches none.
   */
  private async watchOrders(
    em: EntityManager,
    shipment: Shipment,
    change: {
      stored: StoredState | undefined;
      existingLinks: OrderRef[];
      linked: OrderRef[];
      itemsWritten: boolean;
      elements: NestedElement[];
    },
  ): Promise<RecordsBefore> {
    const before = new Set(change.existingLinks.map((o) => o.id));
    const after = new Set(change.linked.map((o) => o.id));
    const ids = new Set<string>();
    for (const id of before) if (!after.has(id)) ids.add(id);
    for (const id of after) if (!before.has(id)) ids.add(id);
    const { stored } = change;
    if (stored && (stored.trackingNumber === null) !== (shipment.trackingNumber === null)) {
      for (const id of after) ids.add(id);
    }
    if (change.itemsWritten) {
      const orderItemIds = change.elements
        .map((e) => referencedId(e.value.orderItem))
        .filter((id): id is string => id !== null);
      // A UNION, not an OR: each side uses its index (the OR scanned all order items).
      const rows: Array<{ order_id: string }> = await em.query(
        `SELECT oi.order_id FROM order_item oi WHERE oi.id = ANY($2::uuid[])
         UNION
         SELECT oi.order_id FROM order_item oi
           JOIN shipment_item si ON si.order_item_id = oi.id
          WHERE si.shipment_id = $1`,
        [stored ? shipment.id : null, orderItemIds],
      );
      for (const { order_id } of rows) ids.add(order_id);
    }
    return this.orderEvents.watch(em, 'order', Order, ids);
  }

  /**
   * Deletes the shipment (its items go with it) and the notes on it, refreshes the orders it
   * counted in and records `shipment.deleted` with the shipment as it was, and `order.updated`
   * (`cause: "shipment"`) for those it changed. Every delete path of a shipment (DELETE,
   * delete_records_batch, the duplicates of a merge) runs this.
   */
  async remove(shipment: Shipment, ctx: WriteContext): Promise<void> {
    const before = await this.events.snapshot(ctx.em, shipment.id);
    const affected = await ordersOfShipment(ctx.em, shipment.id);
    const ordersBefore = await this.orderEvents.watch(ctx.em, 'order', Order, affected);
    const workspaceId = await this.store.workspaceOf(ctx.em, shipment.id);
    await removeNotesOf(ctx.em, workspaceId, 'shipments', [shipment.id]);
    await ctx.em.delete(Shipment, { id: shipment.id });
    await refreshOrderAggregates(ctx.em, affected);
    if (before) await this.events.deleted(ctx.em, shipment.id, before);
    await this.orderEvents.indirectlyUpdated(ctx.em, 'order', Order, ordersBefore, 'shipment');
  }

  async afterWrite(shipment: Shipment, ctx: WriteContext): Promise<void> {
    const previous = this.stored.get(shipment);
    const event: ShipmentWriteEvent = {
      shipment,
      operation: ctx.operation as 'post' | 'put',
      previousTrackingNumber: previous?.trackingNumber ?? null,
      trackingNumberChanged: previous
        ? previous.trackingNumber !== shipment.trackingNumber
        : shipment.trackingNumber !== null,
      em: ctx.em,
      rowChanged: () => {
        const creating = this.creating.get(shipment);
        if (creating) creating.inserted = undefined;
      },
    };
    for (const listener of this.listeners) await listener(event);
    // After the listeners, so the payload shows what they filled in (tracking fields).
    if (!previous) {
      const creating = this.creating.get(shipment);
      const record = await this.events.created(
        ctx.em,
        shipment.id,
        creating?.tracking?.events ?? [],
        creating?.inserted,
      );
      if (creating && record) creating.record = record;
    } else if (previous.snapshot) {
      await this.events.updated(ctx.em, shipment.id, previous.snapshot);
    }
  }

  /** A created shipment as GET shows it: read in its transaction for `shipment.created`. */
  written(shipment: Shipment): ApiRecord | undefined {
    return this.creating.get(shipment)?.record;
  }

  /**
   * Whether another shipment of the workspace has the tracking number; null when a create's
   * workspace is gone. A create asks in the statement that also reads what its insert needs
   * (ShipmentStore.creation), which is where its workspace's row is checked (checksReferences).
   */
  private async numberTaken(
    shipment: Shipment,
    workspaceId: string,
    ctx: WriteContext,
  ): Promise<boolean | null> {
    if (ctx.operation === 'post') {
      const creation = await this.store.creation(
        ctx.em,
        workspaceId,
        shipment.trackingNumber,
        this.creationChecks.map((c) => c.column),
      );
      if (!creation) return null;
      this.creating.set(shipment, { creation });
      return creation.taken;
    }
    if (shipment.trackingNumber === null) return false;
    return this.store.numberTaken(
      ctx.em,
      workspaceId,
      shipment.trackingNumber,
      shipment.id ?? null,
    );
  }

  /**
   * Inserts a new shipment with its tracking fields, decided first (the tracking module's
   * NewShipmentTracker: for a local provider the status, checkpoints and dates are known before
   * the row exists) and, in the same statement, its checkpoints and, when `readSnapshot`, the
   * snapshot `shipment.created` carries.
   */
  private async insertNew(
    shipment: Shipment,
    workspaceId: string,
    em: EntityManager,
    readSnapshot: boolean,
  ) {
    const creating = this.creating.get(shipment);
    if (!creating) throw new Error('A shipment is inserted only after its validation');
    shipment.id = randomUUID();
    const tracking = await this.newShipmentTracker?.(
      {
        id: shipment.id,
        workspaceId,
        teamId: creating.creation.teamId,
        trackingNumber: shipment.trackingNumber,
        originCarrier: shipment.originCarrier,
        createdAt: creating.creation.now,
      },
      em,
    );
    const row = await this.store.insert(
      em,
      shipment,
      tracking?.columns ?? {},
      tracking?.dependents,
      readSnapshot ? this.events.newShipmentRead() : null,
    );
    if (readSnapshot) creating.inserted = this.events.toSnapshot(row);
    await tracking?.afterInsert?.(em);
    creating.tracking = tracking;
  }

  /** Linked orders must belong to the shipment's workspace. */
  private async checkOrders(
    shipment: Shipment,
    workspaceId: string,
    ctx: WriteContext,
  ): Promise<Violation[]> {
    if (!Object.prototype.hasOwnProperty.call(ctx.body, 'orders') || !shipment.orders) return [];
    const ids = shipment.orders.map((o) => o.id);
    const found = new Map((await loadOrders(ctx.em, ids)).map((o) => [o.id, o]));
    return ids.flatMap((id, i) =>
      found.get(id)?.workspaceId === workspaceId
        ? []
        : [
            {
              propertyPath: `orders[${i}]`,
              message: 'The order must belong to the workspace of the shipment.',
              code: ViolationCodes.invalid,
            },
          ],
    );
  }

  /** Items listed in `shipmentItems` must already be items of this shipment. */
  private async checkItems(shipment: Shipment, ctx: WriteContext): Promise<Violation[]> {
    if (!Object.prototype.hasOwnProperty.call(ctx.body, 'shipmentItems') || !shipment.shipmentItems)
      return [];
    const ids = shipment.shipmentItems.map((i) => i.id);
    const rows: Array<{ id: string; shipment_id: string }> = ids.length
      ? await ctx.em.query('SELECT id, shipment_id FROM shipment_item WHERE id = ANY($1::uuid[])', [
          ids,
        ])
      : [];
    const owner = new Map(rows.map((r) => [r.id, r.shipment_id]));
    return ids.flatMap((id, i) =>
      shipment.id && owner.get(id) === shipment.id
        ? []
        : [
            {
              propertyPath: `shipmentItems[${i}]`,
              message:
                'The shipment item belongs to another shipment; items are added through POST /shipment_items.',
              code: ViolationCodes.invalid,
            },
          ],
    );
  }

  private workspaceIdOf(shipment: Shipment): string | undefined {
    return this.stored.get(shipment)?.workspaceId ?? shipment.workspace?.id;
  }
}

/** The id of a reference given as an IRI (or an object with `@id`), else null. */
function referencedId(value: unknown): string | null {
  const ref =
    value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['@id'] : value;
  return typeof ref === 'string' ? identifierFrom(ref) : null;
}

/**
 * An empty tracking number means none; surrounding spaces are dropped. A
 * number of spaces only is kept as sent so the pattern rejects it.
 */
export function trimTrackingNumber(value: string | null | undefined): string | null {
  if (value === undefined || value === null || value === '') return null;
  const trimmed = value.trim();
  return trimmed === '' ? value : trimmed;
}

/** Order numbers trimmed, without blanks and duplicates, in the given order. */
export function cleanOrderNumbers(numbers: string[] | null | undefined): string[] {
  const out: string[] = [];
  for (const n of numbers ?? []) {
    const t = n.trim();
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}
