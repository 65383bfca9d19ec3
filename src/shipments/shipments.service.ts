import { Injectable } from '@nestjs/common';
import { normalizeAddress } from '../addresses/address-rules';
import { ValidationError, Violation, ViolationCodes } from '../common/errors/api-errors';
import { RecordChangeEvents } from '../events/record-change-events';
import type { ApiRecord } from '../hydra/core/api-record';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { referenceNotFound } from '../hydra/write/denormalizer';
import { removeNotesOf } from '../notes/record-notes';
import { orderIdsOf } from '../orders/order-aggregates';
import { OrderStore } from '../orders/order-store';
import { Order } from '../orders/order.entity';
import { ShipmentItemStore } from '../shipment-items/shipment-item-store';
import { assertStatusOf, statusCodeInput } from '../statuses/status-references';
import { StatusStore } from '../statuses/status-store';
import type { Status } from '../statuses/status.entity';
import { WorkflowStore } from '../workflows/workflow-store';
import { decideOriginCarrier } from './shipment-carrier';
import { ShipmentEvents } from './shipment-events';
import { DUPLICATE_TRACKING_NUMBER, Shipment } from './shipment.entity';
import { ShipmentStore } from './shipment-store';
import { ShipmentWriteExtensions, type ShipmentWriteEvent } from './shipment-write-extensions';
import {
  carrierFixed,
  carrierOnPut,
  cleanOrderNumbers,
  foreignItemViolations,
  foreignOrderViolations,
  has,
  trackingNumberChanged,
  trimTrackingNumber,
} from './shipment-write-rules';
import type { ShipmentWrite } from './shipment-write-state';
import { ShipmentWriter } from './shipment-writer';
import { shipmentsCreatedAtEndOf } from './shipments-created-at-end';
import { blankToNull } from './text-input';
import { workflowIdsOf, workflowReferenceViolations } from './workflow-references';

export type { ShipmentWrite } from './shipment-write-state';

/**
 * Shipment rules: trimmed tracking numbers unique per workspace, carrier
 * identification, embedded status find-or-create, contact validation.
 * Other modules extend the writes through ShipmentWriteExtensions (the tracking engine fills
 * the tracking fields in the same transaction, billing checks the plan, shipment items writes
 * the nested items). Creates, changes and deletes go to the outbox as
 * `shipment.created|updated|deleted` in the write's transaction (ShipmentEvents), and the
 * orders whose representation the write changed (links, fulfilment, shipments without
 * tracking) as `order.updated` with `cause: "shipment"` (RecordChangeEvents). The pure rules
 * are in shipment-write-rules.ts; the persisting step in ShipmentWriter.
 */
@Injectable()
export class ShipmentsService implements ResourceHooks<Shipment, ShipmentWrite> {
  /** A create reads its workspace's row anyway (ShipmentStore.creation), missing or not. */
  readonly checksReferences = ['workspace'];

  constructor(
    private readonly events: ShipmentEvents,
    private readonly store: ShipmentStore,
    private readonly orderEvents: RecordChangeEvents,
    private readonly extensions: ShipmentWriteExtensions,
    private readonly writer: ShipmentWriter,
    private readonly orders: OrderStore,
    private readonly items: ShipmentItemStore,
    private readonly workflows: WorkflowStore,
    private readonly statuses: StatusStore,
  ) {}

  /** On PUT, the stored shipment and its event snapshot; a create's state on POST. */
  async begin(shipment: Shipment, ctx: WriteContext<undefined>): Promise<ShipmentWrite> {
    if (ctx.operation === 'post') return { stored: null, creating: {} };
    if (ctx.operation !== 'put') return { stored: null, creating: null };
    const row = await this.store.stored(ctx.em, shipment.id);
    return {
      stored: {
        workspaceId: row.workspace_id,
        trackingNumber: row.tracking_number,
        originCarrier: row.origin_carrier,
        orderNumbers: row.order_numbers,
        snapshot: await this.events.snapshot(ctx.em, shipment.id),
      },
      creating: null,
    };
  }

  async prepare(shipment: Shipment, ctx: WriteContext<ShipmentWrite>): Promise<void> {
    shipment.trackingNumber = trimTrackingNumber(shipment.trackingNumber);
    shipment.email = blankToNull(shipment.email);
    shipment.phoneNumber = blankToNull(shipment.phoneNumber);
    shipment.originCarrier = blankToNull(shipment.originCarrier);
    shipment.externalSourceSyncId = blankToNull(shipment.externalSourceSyncId);
    shipment.fulfillmentSyncId = blankToNull(shipment.fulfillmentSyncId);
    shipment.orderNumbers = cleanOrderNumbers(shipment.orderNumbers);
    normalizeAddress(shipment.address);

    const { stored } = ctx.state;
    if (stored) {
      shipment.originCarrier = carrierOnPut(stored, shipment, has(ctx.body, 'originCarrier'));
    }

    const statusInput = ctx.nested.shipmentStatus;
    const workspaceId = workspaceIdOf(shipment, ctx.state);
    if (statusInput === null) shipment.shipmentStatus = null;
    else if (statusInput !== undefined && workspaceId) {
      const { code, title } = statusCodeInput(statusInput, 'shipmentStatus');
      const id = await this.statuses.findOrCreate(ctx.em, workspaceId, 'shipments', code, title);
      shipment.shipmentStatus = { id } as Status;
    }
  }

  async validate(shipment: Shipment, ctx: WriteContext<ShipmentWrite>): Promise<Violation[]> {
    const { em } = ctx;
    const workspaceId = workspaceIdOf(shipment, ctx.state)!;
    const violations: Violation[] = [];
    if (ctx.operation === 'post') {
      const workflows = await this.workflows.workspacesOf(em, workflowIdsOf(shipment));
      violations.push(...workflowReferenceViolations(shipment, workspaceId, workflows, 'shipment'));
    }
    if (
      shipment.shipmentStatus?.id &&
      ctx.nested.shipmentStatus === undefined &&
      has(ctx.body, 'shipmentStatus')
    ) {
      try {
        const status = await this.statuses.byId(em, shipment.shipmentStatus.id);
        assertStatusOf(status, workspaceId, 'shipments', 'shipmentStatus');
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
    if (has(ctx.body, 'orders') && shipment.orders) {
      const ids = shipment.orders.map((o) => o.id);
      const found = await this.orders.refs(em, ids);
      ctx.state.givenOrders = found;
      const workspaces = new Map(found.map((o) => [o.id, o.workspaceId]));
      violations.push(...foreignOrderViolations(ids, workspaces, workspaceId));
    }
    if (has(ctx.body, 'shipmentItems') && shipment.shipmentItems) {
      const ids = shipment.shipmentItems.map((i) => i.id);
      const owners = await this.items.shipmentsOf(em, ids);
      violations.push(...foreignItemViolations(ids, owners, shipment.id));
    }
    if (violations.length) return violations;

    if (!carrierFixed(ctx.state.stored, shipment)) {
      const decision = decideOriginCarrier(shipment.trackingNumber, shipment.originCarrier);
      if ('violation' in decision) {
        throw new ValidationError(
          [decision.violation],
          decision.suggestedCarriers ? { suggestedCarriers: decision.suggestedCarriers } : {},
        );
      }
      shipment.originCarrier = decision.carrier;
    }
    return this.creationViolations(ctx);
  }

  /** The creation checks of other modules on a new shipment, the first refusing one deciding. */
  private async creationViolations(ctx: WriteContext<ShipmentWrite>): Promise<Violation[]> {
    const creation = ctx.state.creating?.creation;
    if (!creation) return [];
    for (const check of this.extensions.creationChecks) {
      const violations = await check.violations(creation.row, ctx);
      if (violations.length > 0) return violations;
    }
    return [];
  }

  /**
   * Saves the shipment, then its links to orders (kept consistent with `orderNumbers`), the
   * items a PUT left out (deleted), and the aggregates of every order involved (ShipmentWriter).
   */
  persist(shipment: Shipment, ctx: WriteContext<ShipmentWrite>): Promise<void> {
    return this.writer.persist(shipment, workspaceIdOf(shipment, ctx.state)!, ctx);
  }

  /**
   * Deletes the shipment (its items go with it) and the notes on it, refreshes the orders it
   * counted in and records `shipment.deleted` with the shipment as it was, and `order.updated`
   * (`cause: "shipment"`) for those it changed. Every delete path of a shipment (DELETE,
   * delete_records_batch, the duplicates of a merge) runs this.
   */
  async remove(shipment: Shipment, ctx: WriteContext<ShipmentWrite>): Promise<void> {
    const { em } = ctx;
    const before = await this.events.snapshot(em, shipment.id);
    const affected = await this.orders.ofShipment(em, shipment.id);
    const ordersBefore = await this.orderEvents.watch(em, 'order', Order, affected);
    const workspaceId = await this.store.workspaceOf(em, shipment.id);
    await removeNotesOf(em, workspaceId, 'shipments', [shipment.id]);
    await this.store.remove(em, shipment.id);
    await this.orders.refreshAggregates(em, orderIdsOf(affected));
    if (before) await this.events.deleted(em, shipment.id, before);
    await this.orderEvents.indirectlyUpdated(em, 'order', Order, ordersBefore, 'shipment');
  }

  async afterWrite(shipment: Shipment, ctx: WriteContext<ShipmentWrite>): Promise<void> {
    const { stored, creating } = ctx.state;
    const event: ShipmentWriteEvent = {
      shipment,
      operation: ctx.operation as 'post' | 'put',
      previousTrackingNumber: stored?.trackingNumber ?? null,
      trackingNumberChanged: trackingNumberChanged(stored, shipment.trackingNumber),
      em: ctx.em,
      rowChanged: () => {
        if (creating) creating.inserted = undefined;
      },
    };
    await this.extensions.afterWrite(event);
    // After the extensions, so the payload shows what they filled in (tracking fields).
    const atEnd = stored ? undefined : shipmentsCreatedAtEndOf(ctx.em);
    if (atEnd) atEnd.created.push({ id: shipment.id, before: creating?.events ?? [] });
    else if (!stored) {
      const record = await this.events.created(
        ctx.em,
        shipment.id,
        creating?.events ?? [],
        creating?.inserted,
      );
      if (creating && record) creating.record = record;
    } else if (stored.snapshot) {
      await this.events.updated(ctx.em, shipment.id, stored.snapshot);
    }
  }

  /** A created shipment as GET shows it: read in its transaction for `shipment.created`. */
  written(_shipment: Shipment, state: ShipmentWrite): ApiRecord | undefined {
    return state?.creating?.record;
  }

  /**
   * Whether another shipment of the workspace has the tracking number; null when a create's
   * workspace is gone. A create asks in the statement that also reads what its insert needs
   * (ShipmentStore.creation), which is where its workspace's row is checked (checksReferences).
   */
  private async numberTaken(
    shipment: Shipment,
    workspaceId: string,
    ctx: WriteContext<ShipmentWrite>,
  ): Promise<boolean | null> {
    if (ctx.operation === 'post') {
      const creation = await this.store.creation(
        ctx.em,
        workspaceId,
        shipment.trackingNumber,
        this.extensions.creationColumns,
      );
      if (!creation) return null;
      ctx.state.creating = { ...ctx.state.creating, creation };
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
}

/** The shipment's workspace: the stored one, else the one the POST gives. */
function workspaceIdOf(shipment: Shipment, state: ShipmentWrite): string | undefined {
  return state.stored?.workspaceId ?? shipment.workspace?.id;
}
