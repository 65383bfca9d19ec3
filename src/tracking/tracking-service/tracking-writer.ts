import { EventTypes, type ShipmentStatusChangedPayload } from '../../events/event-types';
import { recordEvents, type OutboxEvent, type SqlRunner } from '../../events/outbox';
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

interface ShipmentRow {
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
interface StoredFacts {
  destinationCarrier?: string | null;
  originCountryIso2?: string | null;
  destinationCountryIso2?: string | null;
  expectedDeliveryDate?: string | null;
}

/**
 * Applies tracking results to shipments in the runner's transaction: locks the shipments
 * (in id order, so concurrent batches cannot deadlock), upserts checkpoints idempotently,
 * recomputes every read-only tracking field with the status engine from ALL stored checkpoints,
 * schedules the next check, and writes a `shipment.status_changed` outbox event when the
 * status changed. Set-based: a fixed number of statements whatever the batch size.
 */
export async function applyTrackingUpdates(
  runner: SqlRunner,
  updates: readonly TrackingUpdate[],
  options: ApplyOptions,
): Promise<TrackingOutcome[]> {
  if (updates.length === 0) return [];
  const { now } = options;
  const byId = new Map<string, TrackingUpdate>();
  for (const u of updates) byId.set(u.shipmentId, u);
  const rows: ShipmentRow[] = await runner.query(
    `SELECT id, workspace_id, tracking_number, origin_carrier, created_at, tracking_status,
            last_status_update, days_in_transit, days_in_idle, shipped_at, expected_delivery_date,
            origin_country, origin_country_iso2, destination_country, destination_country_iso2,
            destination_carrier, tracking_attempts, tracking_facts
       FROM shipment WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
    [[...byId.keys()]],
  );
  const live = rows.filter((row) => {
    const expected = byId.get(row.id)!.expectedTrackingNumber;
    return expected === undefined || expected === row.tracking_number;
  });
  const outcomes = new Map<string, TrackingOutcome>();
  for (const id of byId.keys()) {
    outcomes.set(id, {
      shipmentId: id,
      applied: false,
      previousStatus: null,
      trackingStatus: null,
      statusChanged: false,
      newCheckpoints: 0,
      nextCheckAt: null,
    });
  }
  if (live.length === 0) return [...outcomes.values()];

  const inserted = await upsertCheckpoints(
    runner,
    live.map((row) => ({ row, update: byId.get(row.id)! })),
  );
  const stored = await loadCheckpoints(
    runner,
    live.map((r) => r.id),
  );

  const changes: Array<Record<string, unknown>> = [];
  const events: OutboxEvent[] = [];
  for (const row of live) {
    const update = byId.get(row.id)!;
    const facts = mergeFacts(parseFacts(row.tracking_facts), update.facts);
    const computed = computeTracking({
      createdAt: row.created_at,
      trackingNumber: row.tracking_number,
      originCarrier: row.origin_carrier,
      checkpoints: stored.get(row.id) ?? [],
      facts,
      previous:
        row.tracking_status === null && row.last_status_update === null
          ? null
          : {
              trackingStatus: isTrackingStatusCode(row.tracking_status)
                ? row.tracking_status
                : null,
              lastStatusUpdate: row.last_status_update,
            },
      now,
      limits: options.limitsFor(row.origin_carrier),
    });
    const newCheckpoints = inserted.get(row.id) ?? 0;
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
    changes.push({
      id: row.id,
      ...columnsOf(computed),
      next_check_at: next?.toISOString() ?? null,
      tracking_attempts: attempts,
      tracking_facts: storeFacts(facts),
      last_tracked_at: now.toISOString(),
      touched: differs(row, computed),
    });
    if (statusChanged) {
      const payload: ShipmentStatusChangedPayload = {
        shipment: `/shipments/${row.id}`,
        trackingNumber: row.tracking_number,
        previousStatus: row.tracking_status,
        trackingStatus: computed.trackingStatus,
        lastStatusUpdate: computed.lastStatusUpdate?.toISOString() ?? null,
      };
      events.push({
        type: EventTypes.shipmentStatusChanged,
        workspaceId: row.workspace_id,
        aggregateType: 'shipment',
        aggregateId: row.id,
        payload: { ...payload },
      });
    }
    outcomes.set(row.id, {
      shipmentId: row.id,
      applied: true,
      previousStatus: row.tracking_status,
      trackingStatus: computed.trackingStatus,
      statusChanged,
      newCheckpoints,
      nextCheckAt: next,
    });
  }

  await runner.query(
    `UPDATE shipment s SET
        tracking_status = v.tracking_status, days_in_transit = v.days_in_transit,
        days_in_idle = v.days_in_idle, shipped_at = v.shipped_at,
        last_status_update = v.last_status_update, expected_delivery_date = v.expected_delivery_date,
        origin_country = v.origin_country, origin_country_iso2 = v.origin_country_iso2,
        destination_country = v.destination_country,
        destination_country_iso2 = v.destination_country_iso2,
        destination_carrier = v.destination_carrier, next_check_at = v.next_check_at,
        tracking_attempts = v.tracking_attempts, tracking_facts = v.tracking_facts,
        last_tracked_at = v.last_tracked_at, tracking_error = NULL,
        updated_at = CASE WHEN v.touched THEN now() ELSE s.updated_at END
       FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, tracking_status text, days_in_transit int,
            days_in_idle int, shipped_at timestamptz, last_status_update timestamptz,
            expected_delivery_date timestamptz, origin_country text, origin_country_iso2 text,
            destination_country text, destination_country_iso2 text, destination_carrier text,
            next_check_at timestamptz, tracking_attempts int, tracking_facts jsonb,
            last_tracked_at timestamptz, touched boolean)
      WHERE s.id = v.id`,
    [JSON.stringify(changes)],
  );
  await recordEvents(runner, events);
  return [...outcomes.values()];
}

/** Upserts the checkpoints of every update; returns the number of new rows per shipment. */
async function upsertCheckpoints(
  runner: SqlRunner,
  items: Array<{ row: ShipmentRow; update: TrackingUpdate }>,
): Promise<Map<string, number>> {
  const records: Array<Record<string, unknown>> = [];
  for (const { row, update } of items) {
    // The last report of an id wins; one statement cannot touch a row twice.
    const unique = new Map<string, ProviderCheckpoint>();
    for (const c of update.checkpoints) unique.set(c.externalId, c);
    for (const c of unique.values()) {
      records.push({
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
      });
    }
  }
  const inserted = new Map<string, number>();
  if (records.length === 0) return inserted;
  const rows: Array<{ shipment_id: string; n: number }> = await runner.query(
    `WITH written AS (
       INSERT INTO tracking_checkpoint AS c (shipment_id, workspace_id, external_id, checkpoint_date,
              status, info, location, country_iso2, carrier, rel, raw_status, source)
       SELECT x.shipment_id, x.workspace_id, x.external_id, x.checkpoint_date, x.status, x.info,
              x.location, x.country_iso2, x.carrier, x.rel, x.raw_status, x.source
         FROM jsonb_to_recordset($1::jsonb) AS x(shipment_id uuid, workspace_id uuid,
              external_id text, checkpoint_date timestamptz, status text, info text,
              location text, country_iso2 text, carrier text, rel text, raw_status text,
              source text)
       ON CONFLICT (shipment_id, external_id) DO UPDATE SET
         checkpoint_date = EXCLUDED.checkpoint_date, status = EXCLUDED.status,
         info = EXCLUDED.info, location = EXCLUDED.location, country_iso2 = EXCLUDED.country_iso2,
         carrier = EXCLUDED.carrier, rel = EXCLUDED.rel, raw_status = EXCLUDED.raw_status
       WHERE (c.checkpoint_date, c.status, c.info, c.location, c.country_iso2, c.carrier, c.rel,
              c.raw_status)
             IS DISTINCT FROM (EXCLUDED.checkpoint_date, EXCLUDED.status, EXCLUDED.info,
             EXCLUDED.location, EXCLUDED.country_iso2, EXCLUDED.carrier, EXCLUDED.rel,
             EXCLUDED.raw_status)
       RETURNING c.shipment_id, (xmax = 0) AS inserted)
     SELECT shipment_id, count(*) FILTER (WHERE inserted)::int AS n FROM written GROUP BY shipment_id`,
    [JSON.stringify(records)],
  );
  for (const r of rows) inserted.set(r.shipment_id, r.n);
  return inserted;
}

async function loadCheckpoints(
  runner: SqlRunner,
  shipmentIds: string[],
): Promise<Map<string, EngineCheckpoint[]>> {
  const rows: Array<{
    shipment_id: string;
    checkpoint_date: Date;
    status: string;
    country_iso2: string | null;
    carrier: string | null;
    rel: 'origin' | 'destination' | null;
  }> = await runner.query(
    `SELECT shipment_id, checkpoint_date, status, country_iso2, carrier, rel
       FROM tracking_checkpoint WHERE shipment_id = ANY($1::uuid[])`,
    [shipmentIds],
  );
  const out = new Map<string, EngineCheckpoint[]>();
  for (const r of rows) {
    if (!isTrackingStatusCode(r.status)) continue;
    let list = out.get(r.shipment_id);
    if (!list) out.set(r.shipment_id, (list = []));
    list.push({
      checkpointDate: r.checkpoint_date,
      status: r.status as TrackingStatusCode,
      countryIso2: r.country_iso2,
      carrierCode: r.carrier,
      rel: r.rel,
    });
  }
  return out;
}

function columnsOf(c: TrackingComputation): Record<string, unknown> {
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
function differs(row: ShipmentRow, c: TrackingComputation): boolean {
  const time = (d: Date | null) => (d === null ? null : d.getTime());
  return (
    row.tracking_status !== c.trackingStatus ||
    row.days_in_transit !== c.daysInTransit ||
    row.days_in_idle !== c.daysInIdle ||
    time(row.shipped_at) !== time(c.shippedAt) ||
    time(row.last_status_update) !== time(c.lastStatusUpdate) ||
    time(row.expected_delivery_date) !== time(c.expectedDeliveryDate) ||
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
