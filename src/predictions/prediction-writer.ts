import { Injectable, Logger } from '@nestjs/common';
import type { SqlRunner } from '../database/query';
import {
  EventTypes,
  type AttentionPayload,
  type DeliveryPredictionChangedPayload,
} from '../events/event-types';
import { recordEvents, type OutboxEvent } from '../events/outbox';
import type { DependentInsert } from '../shipments/shipment-store';
import { formatDateTime } from '../hydra/serialization/record-reader';
import {
  ShipmentPredictionStore,
  type ShipmentPredictionColumns,
  type ShipmentPredictionRow,
} from '../shipments/shipment-prediction-store';
import {
  CheckpointTimelineStore,
  type TimelineCheckpoint,
} from '../tracking/checkpoints/checkpoint-timeline-store';
import { sameContribution, type ShipmentFacts } from './contribution';
import { attentionOf, DEFAULT_WAITING_DAYS, type AttentionCode } from './model/attention';
import { laneKeys } from './model/lanes';
import type { DeliveryWindow } from './model/predict';
import { journeyOf } from './model/stages';
import {
  PredictionStore,
  type ContributionChange,
  type StatKey,
  type StoredContribution,
} from './prediction-store';
import { attentionCodesOf, factsOf, windowOfJson } from './shipment-facts';
import { updateShipmentPrediction, type ShipmentPredictionUpdate } from './shipment-prediction';

const ATTENTION_EVENT: Record<AttentionCode, OutboxEvent['type']> = {
  exception: EventTypes.shipmentException,
  stalled: EventTypes.shipmentStalled,
  late: EventTypes.shipmentLate,
  waiting: EventTypes.shipmentWaiting,
};

/**
 * A shipment as the tracking writer is about to write it: its row as predictions read it, with
 * the new tracking state (status, countries, the carrier's date), and its checkpoints.
 */
export interface TrackedState {
  row: ShipmentPredictionRow;
  checkpoints: readonly TimelineCheckpoint[];
}

/** What a planned batch writes with the caller's statements: the row's columns, the events. */
interface PlannedPrediction {
  columns: ShipmentPredictionColumns[];
  events: OutboxEvent[];
}

interface Plan {
  columns: ShipmentPredictionColumns[];
  events: OutboxEvent[];
  changes: ContributionChange[];
  /** The stored contributions, read locked: what `changes` replace. */
  before: Map<string, StoredContribution>;
  busy: Map<string, StatKey[]>;
}

interface Loaded {
  row: ShipmentPredictionRow;
  facts: ShipmentFacts;
  teamId: string;
  waitingDays: number;
}

/**
 * Writes what a status change decides about predictions, in the caller's transaction, for a
 * batch of shipments whose rows the caller has locked (the tracking writer, a shipment's
 * create or PUT): the window, `expectedDeliveryDate`, attention, the events of a real change,
 * and the shipments' contributions to the aggregates. A fixed number of statements per batch
 * (one read of contributions and stats). README "Phase 2".
 */
@Injectable()
export class PredictionWriter {
  private readonly logger = new Logger(PredictionWriter.name);

  constructor(
    private readonly shipments: ShipmentPredictionStore,
    private readonly checkpoints: CheckpointTimelineStore,
    private readonly store: PredictionStore,
  ) {}

  /**
   * Recomputes these shipments' predictions and attention at `now`; answers how many
   * contributions changed. `announce: false` (a backfill's first decisions of old parcels)
   * records no events: what it finds is the state of things, not news to send.
   */
  async refresh(
    runner: SqlRunner,
    ids: readonly string[],
    now: Date,
    { announce = true }: { announce?: boolean } = {},
  ): Promise<number> {
    const plan = await this.plan(runner, await this.load(runner, ids), now);
    if (!plan) return 0;
    await this.shipments.write(runner, plan.columns);
    if (announce) await recordEvents(runner, plan.events);
    return this.finish(runner, plan);
  }

  /**
   * The same for a tracking batch about to be written, from the state the tracking writer
   * locked and computed (its row with the prediction state, new columns and checkpoints:
   * nothing read back): the prediction columns, which join the tracking UPDATE, the events,
   * which join its INSERT, and `finish` (contributions) to run once it is written.
   */
  async planTracked(
    runner: SqlRunner,
    pending: readonly TrackedState[],
    now: Date,
  ): Promise<PlannedPrediction & { finish: () => Promise<number> }> {
    const plan = await this.plan(runner, loadedOfTracked(pending), now);
    if (!plan) return { columns: [], events: [], finish: () => Promise.resolve(0) };
    return { columns: plan.columns, events: plan.events, finish: () => this.finish(runner, plan) };
  }

  /**
   * `planTracked` for shipments about to be inserted (a create's decider): nothing is stored of
   * them yet, so their contributions are known now and written by their INSERT, as the
   * statements `dependents` (PredictionStore.replacing). `after` runs once it is written.
   */
  async planNew(
    runner: SqlRunner,
    pending: readonly TrackedState[],
    now: Date,
  ): Promise<PlannedPrediction & { dependents: DependentInsert[]; after: () => void }> {
    const plan = await this.plan(runner, loadedOfTracked(pending), now);
    if (!plan) return { columns: [], events: [], dependents: [], after: () => undefined };
    return {
      columns: plan.columns,
      events: plan.events,
      dependents: this.store.replacing(plan.changes, plan.before),
      after: () => this.compactLater(plan.busy),
    };
  }

  private async plan(
    runner: SqlRunner,
    loaded: readonly Loaded[],
    now: Date,
  ): Promise<Plan | null> {
    if (loaded.length === 0) return null;
    // The stored contributions and every team's stats: one statement for the batch.
    const {
      contributions: before,
      stats,
      busy,
    } = await this.store.readBatch(
      runner,
      loaded.map((l) => l.row.id),
      loaded.map((l) => ({ teamId: l.teamId, keys: laneKeys(l.facts) })),
    );
    const columns: ShipmentPredictionColumns[] = [];
    const events: OutboxEvent[] = [];
    const changes: ContributionChange[] = [];
    for (const l of loaded) {
      const stored = before.get(l.row.id) ?? null;
      const announced = windowOfJson(l.row.delivery_prediction_announced);
      const update = updateShipmentPrediction({
        facts: l.facts,
        before: {
          contribution: stored?.contribution ?? null,
          promises: stored?.promises ?? null,
          announced,
          attention: attentionCodesOf(l.row.attention_codes),
        },
        stats: stats.get(l.teamId)!,
        settings: { waitingDays: l.waitingDays },
        now,
      });
      columns.push(
        columnsOf(l.row.id, update, {
          window: announced,
          json: l.row.delivery_prediction_announced,
        }),
      );
      events.push(
        ...eventsOf(l.row, update.moved, update.attentionStarted, update.attention.codes),
      );
      const change: ContributionChange = {
        shipmentId: l.row.id,
        teamId: l.teamId,
        workspaceId: l.row.workspace_id,
        contribution: update.contribution,
        promises: update.promises,
      };
      // Most refreshes change nothing the aggregates count: no statement for those.
      const same =
        stored !== null &&
        stored.teamId === change.teamId &&
        stored.workspaceId === change.workspaceId &&
        sameContribution(stored, change);
      if (!same) changes.push(change);
    }
    return { columns, events, changes, before, busy };
  }

  private async finish(runner: SqlRunner, plan: Plan): Promise<number> {
    const saved = await this.store.replace(runner, plan.changes, plan.before);
    this.compactLater(plan.busy);
    return saved;
  }

  /**
   * Attention at `now` of shipments whose time rules are due (the AttentionSweeper holds their
   * locks): against the stored window, as the customer was told it; the window itself changes
   * with evidence only (a status change).
   */
  async recheckAttention(runner: SqlRunner, ids: readonly string[], now: Date): Promise<number> {
    const loaded = await this.load(runner, ids);
    if (loaded.length === 0) return 0;
    const { stats, busy } = await this.store.readBatch(
      runner,
      [],
      loaded.map((l) => ({ teamId: l.teamId, keys: laneKeys(l.facts) })),
    );
    const columns: Parameters<ShipmentPredictionStore['writeAttention']>[1][number][] = [];
    const events: OutboxEvent[] = [];
    for (const l of loaded) {
      const journey = journeyOf(l.facts);
      const attention = attentionOf(
        {
          status: l.facts.status,
          journey,
          keys: laneKeys(l.facts),
          prediction: windowOfJson(l.row.delivery_prediction_announced),
        },
        stats.get(l.teamId)!,
        { waitingDays: l.waitingDays },
        now,
      );
      const previous = attentionCodesOf(l.row.attention_codes);
      const started = attention.codes.filter((c) => !previous.includes(c));
      columns.push({
        id: l.row.id,
        attention: attention.primary,
        attention_codes: attention.codes,
        attention_check_at: attention.recheckAt?.toISOString() ?? null,
      });
      events.push(...eventsOf(l.row, null, started, attention.codes));
    }
    await this.shipments.writeAttention(runner, columns);
    await recordEvents(runner, events);
    this.compactLater(busy);
    return events.length;
  }

  /** The rows, checkpoints and settings of these shipments, read. */
  private async load(runner: SqlRunner, ids: readonly string[]): Promise<Loaded[]> {
    if (ids.length === 0) return [];
    const rows = await this.shipments.rows(runner, ids);
    const timelines = await this.checkpoints.timelines(
      runner,
      rows.map((r) => r.id),
    );
    // The workspace's team and setting come with the row (one statement fewer per batch).
    return rows.flatMap((row): Loaded[] =>
      row.team_id ? [loadedOf(row, timelines.get(row.id) ?? [])] : [],
    );
  }

  /**
   * Folds the keys read from many delta rows, on the pool and not awaited: folding is atomic
   * and safe to race, sees only committed rows, and must not lengthen the writer's transaction.
   */
  private compactLater(busy: Map<string, StatKey[]>): void {
    for (const [teamId, keys] of busy)
      void this.store
        .compactStats(teamId, keys)
        .catch((e: unknown) => this.logger.warn(`stats compaction failed: ${String(e)}`));
  }
}

/** The states of shipments of a team (the others predict nothing), as `plan` takes them. */
function loadedOfTracked(pending: readonly TrackedState[]): Loaded[] {
  return pending.flatMap(({ row, checkpoints }) =>
    row.team_id ? [loadedOf(row, checkpoints)] : [],
  );
}

function loadedOf(row: ShipmentPredictionRow, timeline: readonly TimelineCheckpoint[]): Loaded {
  return {
    row,
    facts: factsOf(row, timeline),
    teamId: row.team_id!,
    waitingDays: row.attention_waiting_days ?? DEFAULT_WAITING_DAYS,
  };
}

/** A window as the API renders dates (RFC 3339, `+00:00`, like every date of the shipment). */
function isoWindow(w: DeliveryWindow): { earliest: string; likely: string; latest: string } {
  return {
    earliest: formatDateTime(w.earliest),
    likely: formatDateTime(w.likely),
    latest: formatDateTime(w.latest),
  };
}

/**
 * The columns of an update. Each date is formatted once (6 a shipment were 5 % of the hook's
 * time in a profile): an announced window kept as it was (`u.announced` is then the window read
 * from the row) is written back as stored, one just taken from the prediction reuses its
 * strings.
 */
function columnsOf(
  id: string,
  u: ShipmentPredictionUpdate,
  stored: {
    window: DeliveryWindow | null;
    json: ShipmentPredictionRow['delivery_prediction_announced'];
  },
): ShipmentPredictionColumns {
  const window = u.prediction ? isoWindow(u.prediction) : null;
  const announced =
    u.announced === null
      ? null
      : u.announced === stored.window && stored.json
        ? stored.json
        : window && sameWindow(u.announced, u.prediction!)
          ? window
          : isoWindow(u.announced);
  return {
    id,
    delivery_prediction: u.prediction
      ? { ...window, confidence: u.prediction.confidence, basis: u.prediction.basis }
      : null,
    delivery_prediction_announced: announced,
    expected_delivery_date: u.expectedDeliveryDate?.toISOString() ?? null,
    attention: u.attention.primary,
    attention_codes: u.attention.codes,
    attention_check_at: u.attention.recheckAt?.toISOString() ?? null,
  };
}

function sameWindow(a: DeliveryWindow, b: DeliveryWindow): boolean {
  return (
    a.earliest.getTime() === b.earliest.getTime() &&
    a.likely.getTime() === b.likely.getTime() &&
    a.latest.getTime() === b.latest.getTime()
  );
}

function eventsOf(
  row: ShipmentPredictionRow,
  moved: { before: DeliveryWindow; after: DeliveryWindow } | null,
  started: readonly AttentionCode[],
  codes: readonly AttentionCode[],
): OutboxEvent[] {
  const shipment = `/shipments/${row.id}`;
  const base = { workspaceId: row.workspace_id, aggregateType: 'shipment', aggregateId: row.id };
  const events: OutboxEvent[] = [];
  if (moved) {
    const payload: DeliveryPredictionChangedPayload = {
      shipment,
      trackingNumber: row.tracking_number,
      previous: isoWindow(moved.before),
      current: isoWindow(moved.after),
    };
    events.push({
      ...base,
      type: EventTypes.shipmentDeliveryPredictionChanged,
      payload: { ...payload },
    });
  }
  for (const code of started) {
    const payload: AttentionPayload = {
      shipment,
      trackingNumber: row.tracking_number,
      attention: code,
      attentionCodes: [...codes],
    };
    events.push({ ...base, type: ATTENTION_EVENT[code], payload: { ...payload } });
  }
  return events;
}
