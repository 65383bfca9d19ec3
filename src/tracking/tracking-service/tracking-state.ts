import type { ShipmentTrackingColumns } from '../../shipments/shipment-tracking-store';
import { EventTypes, type ShipmentStatusChangedPayload } from '../../events/event-types';
import type { OutboxEvent } from '../../events/outbox';
import {
  computeTracking,
  nextCheckAt,
  type EngineCheckpoint,
  type TrackingComputation,
  type TrackingFacts,
  type TrackingLimits,
} from '../engine';
import type { ProviderCheckpoint } from '../providers';
import { isPreShipment, isTrackingStatusCode, type TrackingStatusCode } from '../statuses';

/**
 * The tracking rules of one shipment, pure: from its stored state, its checkpoints and what a
 * provider reported, the tracking columns it gets, its next check and its status event. The
 * writer (tracking-writer.ts) applies them to stored shipments; a create applies them before
 * the shipment's row exists, so that one INSERT carries them.
 */

/** What to apply to one shipment. */
export interface TrackingUpdate {
  shipmentId: string;
  /**
   * The number the checkpoints are about: the update is skipped when the shipment's number
   * changed meanwhile (its own write tracks the new number). Undefined: not checked.
   */
  expectedTrackingNumber?: string | null;
  /** Upserted by externalId; the ones already stored stay (a provider may forget old events). */
  checkpoints: readonly ProviderCheckpoint[];
  /** The provider's shipment-level facts; undefined keeps the stored ones (pushed checkpoints). */
  facts?: TrackingFacts;
  source: 'provider' | 'push';
  /**
   * Kept current by push (numbers registered with an aggregator): the next check is at least
   * this far away, a safety-net poll rather than the engine's cadence.
   */
  pollAfterMs?: number;
}

export interface TrackingOutcome {
  shipmentId: string;
  /** False when the shipment is gone or its number changed: nothing was written. */
  applied: boolean;
  previousStatus: string | null;
  trackingStatus: string | null;
  statusChanged: boolean;
  newCheckpoints: number;
  nextCheckAt: Date | null;
}

export interface ApplyOptions {
  now: Date;
  limitsFor(originCarrier: string | null): TrackingLimits;
}

/** The tracking state of a shipment as stored (columns of `shipment`). */
export interface ShipmentTrackingRow {
  id: string;
  workspace_id: string;
  tracking_number: string | null;
  origin_carrier: string | null;
  created_at: Date;
  tracking_status: string | null;
  last_status_update: Date | null;
  days_in_transit: number | null;
  days_in_idle: number | null;
  shipped_at: Date | null;
  expected_delivery_date: Date | null;
  origin_country: string | null;
  origin_country_iso2: string | null;
  destination_country: string | null;
  destination_country_iso2: string | null;
  destination_carrier: string | null;
  tracking_attempts: number;
  tracking_facts: StoredFacts | null;
}

/** TrackingFacts as stored in shipment.tracking_facts (dates as ISO strings). */
export interface StoredFacts {
  destinationCarrier?: string | null;
  originCountryIso2?: string | null;
  destinationCountryIso2?: string | null;
  expectedDeliveryDate?: string | null;
}

/** A `tracking_checkpoint` row to write (columns; the date as an ISO string). */
export interface CheckpointRecord {
  shipment_id: string;
  workspace_id: string;
  external_id: string;
  checkpoint_date: string;
  status: string;
  info: string;
  location: string | null;
  country_iso2: string | null;
  carrier: string | null;
  rel: string | null;
  raw_status: string | null;
  source: TrackingUpdate['source'];
}

/** The columns the tracking rules write on `shipment` (dates as ISO strings). */
export type TrackingColumns = ShipmentTrackingColumns<StoredFacts>;

/** What the rules decide for one shipment. */
export interface TrackingState {
  columns: TrackingColumns;
  /** Whether a field a client sees changed (then updatedAt moves). */
  touched: boolean;
  /** The same without `expected_delivery_date` (an extension may decide that one). */
  touchedBesidesExpectedDate: boolean;
  /** `shipment.status_changed`, when the status changed. */
  event: OutboxEvent | null;
  outcome: TrackingOutcome;
}

/** A shipment being created: nothing tracked yet. */
export function untrackedRow(shipment: {
  id: string;
  workspaceId: string;
  trackingNumber: string | null;
  originCarrier: string | null;
  createdAt: Date;
}): ShipmentTrackingRow {
  return {
    id: shipment.id,
    workspace_id: shipment.workspaceId,
    tracking_number: shipment.trackingNumber,
    origin_carrier: shipment.originCarrier,
    created_at: shipment.createdAt,
    tracking_status: null,
    last_status_update: null,
    days_in_transit: null,
    days_in_idle: null,
    shipped_at: null,
    expected_delivery_date: null,
    origin_country: null,
    origin_country_iso2: null,
    destination_country: null,
    destination_country_iso2: null,
    destination_carrier: null,
    tracking_attempts: 0,
    tracking_facts: null,
  };
}

/**
 * The checkpoint rows of an update, one per externalId: the last report of an id wins (one
 * statement cannot write a row twice).
 */
export function checkpointRecords(
  row: Pick<ShipmentTrackingRow, 'id' | 'workspace_id'>,
  update: TrackingUpdate,
): CheckpointRecord[] {
  const unique = new Map<string, ProviderCheckpoint>();
  for (const c of update.checkpoints) unique.set(c.externalId, c);
  return [...unique.values()].map((c) => ({
    shipment_id: row.id,
    workspace_id: row.workspace_id,
    external_id: c.externalId,
    checkpoint_date: c.checkpointDate.toISOString(),
    status: c.status,
    info: c.info,
    location: c.location,
    country_iso2: c.countryIso2,
    carrier: c.carrierCode || null,
    rel: c.rel ?? null,
    raw_status: c.rawStatus ?? null,
    source: update.source,
  }));
}

/** A stored checkpoint as the engine reads it; null for a status the engine does not know. */
export function engineCheckpoint(stored: {
  checkpoint_date: Date | string;
  status: string;
  country_iso2: string | null;
  carrier: string | null;
  rel: string | null;
}): EngineCheckpoint | null {
  if (!isTrackingStatusCode(stored.status)) return null;
  return {
    checkpointDate: new Date(stored.checkpoint_date),
    status: stored.status as TrackingStatusCode,
    countryIso2: stored.country_iso2,
    carrierCode: stored.carrier,
    rel: stored.rel as EngineCheckpoint['rel'],
  };
}

/**
 * Recomputes a shipment from ALL its checkpoints (`stored`, the update's included) and the
 * update's facts: every read-only tracking field, the next check and the attempts counter,
 * and the status event when the status changed. `newCheckpoints` is how many of the update's
 * checkpoints were new.
 */
export function nextTrackingState(
  row: ShipmentTrackingRow,
  stored: readonly EngineCheckpoint[],
  update: TrackingUpdate,
  newCheckpoints: number,
  options: ApplyOptions,
): TrackingState {
  const { now } = options;
  const facts = mergeFacts(parseFacts(row.tracking_facts), update.facts);
  const computed = computeTracking({
    createdAt: row.created_at,
    trackingNumber: row.tracking_number,
    originCarrier: row.origin_carrier,
    checkpoints: stored,
    facts,
    previous:
      row.tracking_status === null && row.last_status_update === null
        ? null
        : {
            trackingStatus: isTrackingStatusCode(row.tracking_status) ? row.tracking_status : null,
            lastStatusUpdate: row.last_status_update,
          },
    now,
    limits: options.limitsFor(row.origin_carrier),
  });
  const statusChanged = computed.trackingStatus !== row.tracking_status;
  const attempts = newCheckpoints > 0 || statusChanged ? 0 : row.tracking_attempts + 1;
  const engineNext = nextCheckAt(
    computed.trackingStatus,
    computed.lastStatusUpdate,
    now,
    isPreShipment(computed.trackingStatus) ? attempts : undefined,
  );
  const next =
    engineNext !== null && update.pollAfterMs !== undefined
      ? new Date(Math.max(engineNext.getTime(), now.getTime() + update.pollAfterMs))
      : engineNext;
  let event: OutboxEvent | null = null;
  if (statusChanged) {
    const payload: ShipmentStatusChangedPayload = {
      shipment: `/shipments/${row.id}`,
      trackingNumber: row.tracking_number,
      previousStatus: row.tracking_status,
      trackingStatus: computed.trackingStatus,
      lastStatusUpdate: computed.lastStatusUpdate?.toISOString() ?? null,
    };
    event = {
      type: EventTypes.shipmentStatusChanged,
      workspaceId: row.workspace_id,
      aggregateType: 'shipment',
      aggregateId: row.id,
      payload: { ...payload },
    };
  }
  return {
    columns: {
      ...columnsOf(computed),
      next_check_at: next?.toISOString() ?? null,
      tracking_attempts: attempts,
      tracking_facts: storeFacts(facts),
      last_tracked_at: now.toISOString(),
    },
    touched: differs(row, computed) || expectedDateDiffers(row, computed.expectedDeliveryDate),
    touchedBesidesExpectedDate: differs(row, computed),
    event,
    outcome: {
      shipmentId: row.id,
      applied: true,
      previousStatus: row.tracking_status,
      trackingStatus: computed.trackingStatus,
      statusChanged,
      newCheckpoints,
      nextCheckAt: next,
    },
  };
}

function columnsOf(
  c: TrackingComputation,
): Omit<
  TrackingColumns,
  'next_check_at' | 'tracking_attempts' | 'tracking_facts' | 'last_tracked_at'
> {
  return {
    tracking_status: c.trackingStatus,
    days_in_transit: c.daysInTransit,
    days_in_idle: c.daysInIdle,
    shipped_at: c.shippedAt?.toISOString() ?? null,
    last_status_update: c.lastStatusUpdate?.toISOString() ?? null,
    expected_delivery_date: c.expectedDeliveryDate?.toISOString() ?? null,
    origin_country: c.originCountry,
    origin_country_iso2: c.originCountryIso2,
    destination_country: c.destinationCountry,
    destination_country_iso2: c.destinationCountryIso2,
    destination_carrier: c.destinationCarrier,
  };
}

/** Whether any field a client sees changed (then updatedAt moves). */
const time = (d: Date | null) => (d === null ? null : d.getTime());

/** Whether the stored `expected_delivery_date` differs from `date`. */
export function expectedDateDiffers(row: ShipmentTrackingRow, date: Date | null): boolean {
  return time(row.expected_delivery_date) !== time(date);
}

/** Whether a field a client sees differs, `expected_delivery_date` aside. */
function differs(row: ShipmentTrackingRow, c: TrackingComputation): boolean {
  return (
    row.tracking_status !== c.trackingStatus ||
    row.days_in_transit !== c.daysInTransit ||
    row.days_in_idle !== c.daysInIdle ||
    time(row.shipped_at) !== time(c.shippedAt) ||
    time(row.last_status_update) !== time(c.lastStatusUpdate) ||
    row.origin_country !== c.originCountry ||
    row.origin_country_iso2 !== c.originCountryIso2 ||
    row.destination_country !== c.destinationCountry ||
    row.destination_country_iso2 !== c.destinationCountryIso2 ||
    row.destination_carrier !== c.destinationCarrier
  );
}

function storeFacts(facts: TrackingFacts): StoredFacts {
  return {
    destinationCarrier: facts.destinationCarrier ?? null,
    originCountryIso2: facts.originCountryIso2 ?? null,
    destinationCountryIso2: facts.destinationCountryIso2 ?? null,
    expectedDeliveryDate: facts.expectedDeliveryDate?.toISOString() ?? null,
  };
}

function parseFacts(stored: StoredFacts | null): TrackingFacts {
  if (!stored) return {};
  const expected = stored.expectedDeliveryDate ? new Date(stored.expectedDeliveryDate) : null;
  return {
    destinationCarrier: stored.destinationCarrier ?? null,
    originCountryIso2: stored.originCountryIso2 ?? null,
    destinationCountryIso2: stored.destinationCountryIso2 ?? null,
    expectedDeliveryDate: expected && !Number.isNaN(expected.getTime()) ? expected : null,
  };
}

/**
 * The shipment's facts after an update: what the update reports replaces what was stored, key
 * by key; a key it leaves out keeps its stored value (a push carrying one event reports only
 * what that event says, and must not erase the destination carrier a poll found).
 */
export function mergeFacts(
  stored: TrackingFacts,
  reported: TrackingFacts | undefined | null,
): TrackingFacts {
  if (!reported) return stored;
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(reported)) if (value !== undefined) merged[key] = value;
  return merged as TrackingFacts;
}

/**
 * The tracking of a shipment about to be created, from its provider's first report: its
 * checkpoints are exactly the report's (nothing is stored yet), all of them new.
 */
export function firstTrackingState(
  row: ShipmentTrackingRow,
  update: TrackingUpdate,
  options: ApplyOptions,
): TrackingState & { checkpoints: CheckpointRecord[] } {
  const checkpoints = checkpointRecords(row, update);
  const stored = checkpoints.flatMap((c) => engineCheckpoint(c) ?? []);
  return {
    ...nextTrackingState(row, stored, update, checkpoints.length, options),
    checkpoints,
  };
}
