import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { normalizeAddress } from '../common/address-rules';
import { ValidationError, Violation, ViolationCodes } from '../hydra/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/write/resource-hooks';
import { checkStatusReference, findOrCreateStatus } from '../statuses/status-references';
import { Status } from '../statuses/status.entity';
import { decideOriginCarrier } from './shipment-carrier';
import { Shipment } from './shipment.entity';

/** What a write did to a shipment, for those who react to it (tracking). */
export interface ShipmentWriteEvent {
  shipment: Shipment;
  operation: 'post' | 'put';
  /** True on create with a number, and on a PUT that set or changed it. */
  trackingNumberChanged: boolean;
  previousTrackingNumber: string | null;
  /** The write's transaction: work done here commits or rolls back with it. */
  em: EntityManager;
}

export type ShipmentWriteListener = (event: ShipmentWriteEvent) => Promise<void> | void;

interface StoredState {
  workspaceId: string;
  trackingNumber: string | null;
  originCarrier: string | null;
}

/**
 * Shipment rules: trimmed tracking numbers unique per workspace, carrier
 * identification, embedded status find-or-create, contact validation.
 * Others hook in with `onWrite` (the tracking engine fills the tracking
 * fields in the same transaction when the number changes).
 */
@Injectable()
export class ShipmentsService implements ResourceHooks<Shipment> {
  private readonly listeners: ShipmentWriteListener[] = [];
  private readonly stored = new WeakMap<Shipment, StoredState>();

  /** Registers a listener called inside every shipment create/replace transaction. */
  onWrite(listener: ShipmentWriteListener): void {
    this.listeners.push(listener);
  }

  async prepare(shipment: Shipment, ctx: WriteContext): Promise<void> {
    if (ctx.operation === 'put') {
      const [row] = await ctx.em.query(
        'SELECT workspace_id, tracking_number, origin_carrier FROM shipment WHERE id = $1',
        [shipment.id],
      );
      this.stored.set(shipment, {
        workspaceId: row.workspace_id,
        trackingNumber: row.tracking_number,
        originCarrier: row.origin_carrier,
      });
    }
    shipment.trackingNumber = trimTrackingNumber(shipment.trackingNumber);
    shipment.email = blankToNull(shipment.email);
    shipment.phoneNumber = blankToNull(shipment.phoneNumber);
    shipment.originCarrier = blankToNull(shipment.originCarrier);
    shipment.externalSourceSyncId = blankToNull(shipment.externalSourceSyncId);
    shipment.fulfillmentSyncId = blankToNull(shipment.fulfillmentSyncId);
    shipment.externalSourceIntegration = blankToNull(shipment.externalSourceIntegration);
    shipment.fulfillmentIntegration = blankToNull(shipment.fulfillmentIntegration);
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
    if (shipment.trackingNumber !== null) {
      const taken = await ctx.em.query(
        'SELECT 1 FROM shipment WHERE workspace_id = $1 AND tracking_number = $2 AND id IS DISTINCT FROM $3 LIMIT 1',
        [workspaceId, shipment.trackingNumber, shipment.id ?? null],
      );
      if (taken.length) {
        violations.push({
          propertyPath: 'trackingNumber',
          message: 'This tracking number is already used by another shipment of the workspace.',
          code: ViolationCodes.unique,
        });
      }
    }
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
    return [];
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
    };
    for (const listener of this.listeners) await listener(event);
  }

  private workspaceIdOf(shipment: Shipment): string | undefined {
    return this.stored.get(shipment)?.workspaceId ?? shipment.workspace?.id;
  }
}

function blankToNull(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
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
