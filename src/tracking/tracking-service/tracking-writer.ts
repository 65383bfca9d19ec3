import { recordEvents, type OutboxEvent } from '../../events/outbox';
import type { DependentInsert } from '../../shipments/shipment-store';
import type { EngineCheckpoint } from '../engine';
import type { PendingTrackingWrite, TrackingApplyExtensions } from './tracking-apply-extensions';
import {
  checkpointRecords,
  engineCheckpoint,
  expectedDateDiffers,
  nextTrackingState,
  type ApplyOptions,
  type CheckpointRecord,
  type TrackingOutcome,
  type TrackingUpdate,
} from './tracking-state';
import { query, type SqlRunner } from '../../database/query';
import {
  ShipmentTrackingStore,
  type TrackingColumnsChange,
} from '../../shipments/shipment-tracking-store';

/** The store of the functions below, which the tracking service calls without injection. */
const shipments = new ShipmentTrackingStore();

export type { ApplyOptions, TrackingOutcome, TrackingUpdate } from './tracking-state';
export { mergeFacts } from './tracking-state';

/**
 * Applies tracking results to shipments in the runner's transaction: locks the shipments
 * (in id order, so concurrent batches cannot deadlock), upserts checkpoints idempotently,
 * recomputes every read-only tracking field with the status engine from ALL stored checkpoints,
 * schedules the next check, and writes a `shipment.status_changed` outbox event when the
 * status changed (the rules: tracking-state.ts). `extensions` (delivery predictions) see the
 * new state before the UPDATE and add their columns to it. Set-based: a fixed number of
 * statements whatever the batch size.
 */
export async function applyTrackingUpdates(
  runner: SqlRunner,
  updates: readonly TrackingUpdate[],
  options: ApplyOptions,
  extensions?: Pick<TrackingApplyExtensions, 'beforeWrite' | 'active'>,
): Promise<TrackingOutcome[]> {
  if (updates.length === 0) return [];
  const byId = new Map<string, TrackingUpdate>();
  for (const u of updates) byId.set(u.shipmentId, u);
  const extended = extensions?.active ? extensions : undefined;
  const rows = await shipments.lockForTracking<PendingTrackingWrite['row']>(
    runner,
    [...byId.keys()],
    !!extended,
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

  const written = await upsertCheckpoints(
    runner,
    live.flatMap((row) => checkpointRecords(row, byId.get(row.id)!)),
  );
  const stored = await loadCheckpoints(
    runner,
    live.map((r) => r.id),
  );

  const pending: (PendingTrackingWrite & { state: ReturnType<typeof nextTrackingState> })[] = [];
  const events: OutboxEvent[] = [];
  for (const row of live) {
    const checkpoints = stored.get(row.id) ?? [];
    const state = nextTrackingState(
      row,
      checkpoints,
      byId.get(row.id)!,
      written.get(row.id)?.inserted ?? 0,
      options,
    );
    const checkpointsChanged = written.get(row.id)?.changed ?? 0;
    pending.push({ row, columns: state.columns, checkpoints, checkpointsChanged, state });
    if (state.event) events.push(state.event);
    outcomes.set(row.id, state.outcome);
  }
  const added = extended ? await extended.beforeWrite(runner, pending, options.now) : null;
  const changes = pending.map(({ row, state }): TrackingColumnsChange => {
    if (added?.unchanged.has(row.id))
      // The extension keeps what it decided with this evidence, its expected date included.
      return {
        id: row.id,
        ...state.columns,
        expected_delivery_date: row.expected_delivery_date?.toISOString() ?? null,
        touched: state.touchedBesidesExpectedDate,
      };
    const extra = added?.columns.get(row.id);
    if (!extra) return { id: row.id, ...state.columns, touched: state.touched };
    // The extension's expected_delivery_date replaces the carrier's: one value, one write.
    const { expected_delivery_date, ...prediction } = extra;
    const expected = expected_delivery_date === null ? null : new Date(expected_delivery_date);
    return {
      id: row.id,
      ...state.columns,
      expected_delivery_date,
      touched: state.touchedBesidesExpectedDate || expectedDateDiffers(row, expected),
      prediction,
    };
  });

  await shipments.applyTracking(runner, changes);
  await recordEvents(runner, added ? [...events, ...added.events] : events);
  await added?.afterWrite();
  return [...outcomes.values()];
}

/** The columns of CheckpointRecord, in the order the checkpoint INSERTs write them. */
const CHECKPOINT_COLUMNS = [
  'shipment_id',
  'workspace_id',
  'external_id',
  'checkpoint_date',
  'status',
  'info',
  'location',
  'country_iso2',
  'carrier',
  'rel',
  'raw_status',
  'source',
];

/**
 * `INSERT INTO tracking_checkpoint` of the checkpoint records given as one jsonb parameter
 * (`param`), read as rows `x`; `as`: the table's alias (an upsert's ON CONFLICT names it).
 */
const insertCheckpointRecords = (param = '$1', as = '') =>
  `INSERT INTO tracking_checkpoint ${as && `AS ${as} `}(${CHECKPOINT_COLUMNS.join(', ')})
   SELECT ${CHECKPOINT_COLUMNS.map((c) => `x.${c}`).join(', ')}
     FROM jsonb_to_recordset(${param}::jsonb) AS x(shipment_id uuid, workspace_id uuid,
          external_id text, checkpoint_date timestamptz, status text, info text,
          location text, country_iso2 text, carrier text, rel text, raw_status text,
          source text)`;

/**
 * Upserts checkpoints; answers per shipment how many rows are new and how many changed in all
 * (new or corrected by the provider). A shipment with neither is absent.
 */
async function upsertCheckpoints(
  runner: SqlRunner,
  records: readonly CheckpointRecord[],
): Promise<Map<string, { inserted: number; changed: number }>> {
  const written = new Map<string, { inserted: number; changed: number }>();
  if (records.length === 0) return written;
  const rows = await query<{ shipment_id: string; n: number; changed: number }>(
    runner,
    `WITH written AS (
       ${insertCheckpointRecords('$1', 'c')}
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
     SELECT shipment_id, count(*) FILTER (WHERE inserted)::int AS n, count(*)::int AS changed
       FROM written GROUP BY shipment_id`,
    [JSON.stringify(records)],
  );
  for (const r of rows) written.set(r.shipment_id, { inserted: r.n, changed: r.changed });
  return written;
}

/**
 * The INSERT of the checkpoints of a shipment created in this transaction, taking the records
 * as its one parameter: the shipment has none yet, so nothing conflicts and nothing needs
 * reading back (its tracking was computed from these). null when there are none.
 */
export function newCheckpointsInsert(records: readonly CheckpointRecord[]): DependentInsert | null {
  if (records.length === 0) return null;
  return { sql: (param) => insertCheckpointRecords(param), param: JSON.stringify(records) };
}

async function loadCheckpoints(
  runner: SqlRunner,
  shipmentIds: string[],
): Promise<Map<string, EngineCheckpoint[]>> {
  const rows = await query<{
    shipment_id: string;
    checkpoint_date: Date;
    status: string;
    country_iso2: string | null;
    carrier: string | null;
    rel: string | null;
  }>(
    runner,
    `SELECT shipment_id, checkpoint_date, status, country_iso2, carrier, rel
       FROM tracking_checkpoint WHERE shipment_id = ANY($1::uuid[])`,
    [shipmentIds],
  );
  const out = new Map<string, EngineCheckpoint[]>();
  for (const r of rows) {
    const checkpoint = engineCheckpoint(r);
    if (!checkpoint) continue;
    let list = out.get(r.shipment_id);
    if (!list) out.set(r.shipment_id, (list = []));
    list.push(checkpoint);
  }
  return out;
}
