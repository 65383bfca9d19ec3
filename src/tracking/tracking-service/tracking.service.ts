import { Injectable, Logger } from '@nestjs/common';
import { pausePoint } from '../../common/pause-point';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { JobQueue } from '../../jobs/job-queue';
import { removeNotesOfDeleted } from '../../notes/record-notes';
import { findCarrier } from '../carriers';
import { Clock } from '../clock';
import { DEFAULT_TRACKING_LIMITS, type TrackingLimits } from '../engine';
import {
  TrackingProviderError,
  TrackingProviderRegistry,
  type ProviderCheckpoint,
  type TrackingResult,
} from '../providers';
import { ProviderCredentialsRejected } from '../providers/remote/provider-adapter';
import type { TrackingCredentials } from '../providers/remote/provider-credentials-store';
import {
  PUSH_SAFETY_POLL_MS,
  RemoteTracking,
  type RemoteShipment,
} from '../providers/remote/remote-tracking';
import { isFinal } from '../statuses';
import { chunk, mapWithConcurrency, TimeoutError, withTimeout } from './concurrency';
import type { NewShipment, NewShipmentTracking } from '../../shipments/shipments.service';
import { firstTrackingState, untrackedRow } from './tracking-state';
import {
  applyTrackingUpdates,
  newCheckpointsInsert,
  type TrackingOutcome,
  type TrackingUpdate,
} from './tracking-writer';

export const TRACK_QUEUE = 'tracking.track';

/** Provider calls outside a request (jobs, refresh rounds) may take this long. */
export const BACKGROUND_PROVIDER_TIMEOUT_MS = 30_000;
/** Shipments written per transaction by a batch. */
const APPLY_CHUNK = 100;
const RETRY_BASE_MS = 15 * 60_000;
/** Numbers left out of a partial registration batch are due again after this long. */
export const REGISTRATION_DEFER_MS = 60_000;
const RETRY_MAX_MS = 24 * 3_600_000;

/** Work of another module in an applied tracking batch's transaction (TrackingService.onApplied). */
export type TrackingAppliedListener = (
  em: EntityManager,
  outcomes: readonly TrackingOutcome[],
  now: Date,
) => Promise<void>;

export interface TrackFailure {
  shipmentId: string;
  error: string;
  transient: boolean;
  retryAt: Date;
  /**
   * A remote provider failed: its retry is the shipment's schedule (backoff, Retry-After),
   * never the job queue's quick retries, which would hammer a provider that is down.
   */
  remote?: boolean;
}

export interface TrackReport {
  outcomes: TrackingOutcome[];
  failures: TrackFailure[];
}

export interface TrackOptions {
  timeoutMs?: number;
  concurrency?: number;
}

interface ShipmentToTrack {
  id: string;
  tracking_number: string | null;
  origin_carrier: string | null;
  created_at: Date;
  tracking_attempts: number;
  team_id: string;
}

const SELECT_TO_TRACK = `SELECT s.id, s.tracking_number, s.origin_carrier, s.created_at,
       s.tracking_attempts, w.team_id
  FROM shipment s JOIN workspace w ON w.id = s.workspace_id`;

/** Remote shipments whose results were applied, to stop the final ones at the provider. */
type RemoteApplied = Array<{ route: TrackingCredentials; rows: ShipmentToTrack[] }>;

/** A result pushed by a provider for shipments it tracks (see src/tracking/webhooks). */
export interface PushedResult {
  shipmentIds: readonly string[];
  result: TrackingResult;
}

type Fetched =
  | { row: ShipmentToTrack; update: TrackingUpdate }
  | { row: ShipmentToTrack; error: unknown }
  | { row: ShipmentToTrack; deferred: true };

/**
 * Tracks shipments: asks the provider registry about each shipment's number and carrier
 * (outside any transaction: no lock is held while a carrier answers), then applies the
 * results set-based in short transactions (tracking-writer.ts). Failures are rescheduled with
 * backoff, never lost: the shipment's next_check_at is the durable reminder.
 */
@Injectable()
export class TrackingService {
  private readonly logger = new Logger(TrackingService.name);
  private readonly appliedListeners: TrackingAppliedListener[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly providers: TrackingProviderRegistry,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly jobs: JobQueue,
    private readonly remote: RemoteTracking,
  ) {
    jobs.declareQueue({ name: TRACK_QUEUE, retryLimit: 5, retryDelay: 5, retryBackoff: true });
    jobs.work<{ shipmentId: string }>({
      queue: TRACK_QUEUE,
      handle: async ({ shipmentId }) => {
        const report = await this.trackMany([shipmentId]);
        // A transient failure is retried by the queue (seconds); the shipment is also due.
        const failure = report.failures[0];
        if (failure?.transient && !failure.remote) throw new Error(failure.error);
      },
    });
  }

  /**
   * Registers work done in the transaction of every applied tracking batch, after its
   * shipments were written (delivery predictions, src/predictions).
   */
  onApplied(listener: TrackingAppliedListener): void {
    this.appliedListeners.push(listener);
  }

  /** Re-tracks one shipment now. */
  async track(shipmentId: string, options: TrackOptions = {}): Promise<TrackReport> {
    return this.trackMany([shipmentId], options);
  }

  /** Re-tracks shipments now: provider calls in parallel, results in batched transactions. */
  async trackMany(ids: readonly string[], options: TrackOptions = {}): Promise<TrackReport> {
    if (ids.length === 0) return { outcomes: [], failures: [] };
    const rows: ShipmentToTrack[] = await this.dataSource.query(
      `${SELECT_TO_TRACK} WHERE s.id = ANY($1::uuid[])`,
      [ids],
    );
    const timeoutMs = options.timeoutMs ?? BACKGROUND_PROVIDER_TIMEOUT_MS;
    const { fetched, remote, remoteIds } = await this.fetchAll(
      rows,
      timeoutMs,
      options.concurrency,
    );
    const now = this.clock.now();
    const outcomes: TrackingOutcome[] = [];
    const updates = fetched.flatMap((f) => ('update' in f ? [f.update] : []));
    const parts = chunk(updates, APPLY_CHUNK);
    for (const [index, part] of parts.entries()) {
      outcomes.push(...(await this.dataSource.transaction((em) => this.apply(em, part, now))));
      if (index < parts.length - 1) await pausePoint('tracking.refresh.applied');
    }
    const failures = fetched.flatMap((f) =>
      'error' in f
        ? [{ ...this.failure(f.row, f.error, now), remote: remoteIds.has(f.row.id) }]
        : [],
    );
    if (failures.length > 0) await this.reschedule(failures);
    await this.dueAgain(fetched.flatMap((f) => ('deferred' in f ? [f.row.id] : [])));
    await this.stopFinal(remote, outcomes, timeoutMs);
    // Shipments a remote provider tracked before and none does now: stopped there.
    await this.remote.release(
      rows.filter((r) => !remoteIds.has(r.id)).map((r) => r.id),
      { timeoutMs, now: this.clock.now() },
    );
    return { outcomes, failures };
  }

  /**
   * The remote providers' own later pass (the refresher runs it): sends the stops that are
   * due again after a failure (see RemoteTracking.upkeep).
   */
  async remoteUpkeep() {
    return this.remote.upkeep({ timeoutMs: BACKGROUND_PROVIDER_TIMEOUT_MS, now: this.clock.now() });
  }

  /**
   * Asks each shipment's provider: remote ones (a team's credentials or TRACKING_PROVIDER) in
   * batches per credentials, the rest through the built-in registry one by one.
   */
  private async fetchAll(
    rows: ShipmentToTrack[],
    timeoutMs: number,
    concurrency = this.config.trackingRefreshConcurrency,
  ): Promise<{ fetched: Fetched[]; remote: RemoteApplied; remoteIds: Set<string> }> {
    const withNumber = rows.filter(
      (r): r is ShipmentToTrack & RemoteShipment =>
        r.tracking_number !== null && r.tracking_number.trim() !== '',
    );
    const routes = await this.remote.route(withNumber);
    const remoteIds = new Set(routes.groups.flatMap((g) => g.shipments.map((s) => s.id)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const fetched: Fetched[] = await mapWithConcurrency(
      rows.filter((r) => !remoteIds.has(r.id)),
      concurrency,
      (row) => this.fetch(row, timeoutMs),
    );
    const remote: RemoteApplied = [];
    for (const group of routes.groups) {
      const answers = await this.remote.fetch(group.route, group.shipments, {
        timeoutMs,
        now: this.clock.now(),
      });
      const groupRows: ShipmentToTrack[] = [];
      for (const shipment of group.shipments) {
        const row = byId.get(shipment.id)!;
        const answer = answers.get(shipment.id);
        if (!answer || 'error' in answer) {
          fetched.push({ row, error: answer?.error ?? new Error('the provider gave no answer') });
          continue;
        }
        if ('deferred' in answer) {
          fetched.push({ row, deferred: true });
          continue;
        }
        groupRows.push(row);
        fetched.push({
          row,
          update: {
            shipmentId: row.id,
            expectedTrackingNumber: row.tracking_number,
            checkpoints: answer.result.checkpoints,
            facts: answer.result.facts,
            source: 'provider',
            pollAfterMs: answer.pushManaged ? PUSH_SAFETY_POLL_MS : undefined,
          },
        });
      }
      remote.push({ route: group.route, rows: groupRows });
    }
    return { fetched, remote, remoteIds };
  }

  /** Whether a remote provider (credentials or TRACKING_PROVIDER) tracks this shipment. */
  private async routedToRemote(row: ShipmentToTrack, em: EntityManager): Promise<boolean> {
    if (row.tracking_number === null || row.tracking_number.trim() === '') return false;
    const routes = await this.remote.route([row as ShipmentToTrack & RemoteShipment], em);
    return routes.groups.length > 0;
  }

  /** Stops, at their provider, the remote shipments that just reached a final status. */
  private async stopFinal(
    remote: RemoteApplied,
    outcomes: readonly TrackingOutcome[],
    timeoutMs: number,
  ): Promise<void> {
    const final = new Set(
      outcomes
        .filter((o) => o.applied && o.trackingStatus !== null && isFinal(o.trackingStatus as never))
        .map((o) => o.shipmentId),
    );
    for (const { route, rows } of remote) {
      const done = rows.filter((r) => final.has(r.id));
      if (done.length === 0) continue;
      await this.remote.stopFinal(
        route,
        done.map((r) => ({
          id: r.id,
          tracking_number: r.tracking_number!,
          origin_carrier: r.origin_carrier,
        })),
        { timeoutMs, now: this.clock.now() },
      );
    }
  }

  /**
   * Applies results a provider pushed (src/tracking/webhooks) through the same writer as a
   * refresh: checkpoints upserted by the provider's ids, facts replaced, the status event in
   * the outbox; the shipments are then polled only as a safety net, and stopped at the
   * provider when final.
   */
  async applyPushed(route: TrackingCredentials, pushed: readonly PushedResult[]) {
    const now = this.clock.now();
    const updates = new Map<string, TrackingUpdate>();
    for (const { shipmentIds, result } of pushed) {
      for (const shipmentId of shipmentIds) {
        const earlier = updates.get(shipmentId);
        updates.set(shipmentId, {
          shipmentId,
          checkpoints: [...(earlier?.checkpoints ?? []), ...result.checkpoints],
          facts: result.facts,
          source: 'push',
          pollAfterMs: route.adapter.register ? PUSH_SAFETY_POLL_MS : undefined,
        });
      }
    }
    const outcomes: TrackingOutcome[] = [];
    for (const part of chunk([...updates.values()], APPLY_CHUNK)) {
      outcomes.push(...(await this.dataSource.transaction((em) => this.apply(em, part, now))));
    }
    const applied = outcomes.filter((o) => o.applied).map((o) => o.shipmentId);
    const rows: ShipmentToTrack[] =
      applied.length === 0
        ? []
        : await this.dataSource.query(`${SELECT_TO_TRACK} WHERE s.id = ANY($1::uuid[])`, [applied]);
    await this.stopFinal([{ route, rows }], outcomes, BACKGROUND_PROVIDER_TIMEOUT_MS);
    return outcomes;
  }

  /**
   * Tracks a shipment inside the transaction that just wrote its tracking number (create, or a
   * PUT that changed it): the provider gets `trackingSyncTimeoutMs`; when it is slower or fails,
   * the shipment is left due and a job (enqueued in the same transaction, so it exists exactly
   * when the shipment does) tracks it within seconds. A changed number starts a new journey.
   */
  async trackInTransaction(
    em: EntityManager,
    shipmentId: string,
    options: { newJourney: boolean },
  ): Promise<TrackingOutcome | null> {
    const now = this.clock.now();
    if (options.newJourney) {
      // DELETE ... RETURNING answers [rows, count] through TypeORM.
      const [checkpoints]: [Array<{ id: string; workspace_id: string }>, number] = await em.query(
        `DELETE FROM tracking_checkpoint WHERE shipment_id = $1 RETURNING id, workspace_id`,
        [shipmentId],
      );
      // The old journey's checkpoints go with the notes on them.
      await removeNotesOfDeleted(em, 'tracking_checkpoints', checkpoints);
      await em.query(
        `UPDATE shipment SET tracking_status = NULL, days_in_transit = NULL, days_in_idle = NULL,
                shipped_at = NULL, last_status_update = NULL, expected_delivery_date = NULL,
                origin_country = NULL, origin_country_iso2 = NULL, destination_country = NULL,
                destination_country_iso2 = NULL, destination_carrier = NULL,
                tracking_attempts = 0, tracking_facts = NULL, tracking_error = NULL
          WHERE id = $1`,
        [shipmentId],
      );
    }
    const [row]: ShipmentToTrack[] = await em.query(`${SELECT_TO_TRACK} WHERE s.id = $1`, [
      shipmentId,
    ]);
    if (!row) return null;
    if (await this.routedToRemote(row, em)) {
      // Never inside the write's transaction: a remote provider's calls (shared budget,
      // registration batches) would hold this connection while waiting for others.
      await em.query(`UPDATE shipment SET next_check_at = $2 WHERE id = $1`, [shipmentId, now]);
      await this.jobs.send(TRACK_QUEUE, { shipmentId }, { runner: em, singletonKey: shipmentId });
      return null;
    }
    const fetched = await this.fetch(row, this.config.trackingSyncTimeoutMs);
    if ('error' in fetched) {
      this.logger.warn(
        `tracking ${row.tracking_number} deferred to a job: ${describe(fetched.error)}`,
      );
      await em.query(`UPDATE shipment SET next_check_at = $2 WHERE id = $1`, [shipmentId, now]);
      await this.jobs.send(TRACK_QUEUE, { shipmentId }, { runner: em, singletonKey: shipmentId });
      return null;
    }
    const [outcome] = await this.apply(em, [fetched.update], now);
    return outcome;
  }

  /**
   * The tracking of a shipment about to be created, decided before its row is inserted so that
   * one INSERT carries it (ShipmentsService.trackNewWith). A local provider (the sandbox,
   * no_info) is asked now, within `trackingSyncTimeoutMs`: the row gets the status, dates and
   * next check computed from its report, and its checkpoints are inserted with the row (its
   * `dependents`; nothing to read back: they are the report's). A shipment routed to a remote provider, or
   * whose provider is slow or fails, is left due with its job enqueued in the same
   * transaction, as trackInTransaction does.
   */
  async trackNew(em: EntityManager, shipment: NewShipment): Promise<NewShipmentTracking> {
    const now = this.clock.now();
    const row: ShipmentToTrack = {
      id: shipment.id,
      tracking_number: shipment.trackingNumber,
      origin_carrier: shipment.originCarrier,
      created_at: shipment.createdAt,
      tracking_attempts: 0,
      team_id: shipment.teamId,
    };
    const deferred: NewShipmentTracking = {
      columns: { next_check_at: now },
      afterInsert: async (runner) => {
        await this.jobs.send(
          TRACK_QUEUE,
          { shipmentId: shipment.id },
          { runner, singletonKey: shipment.id },
        );
      },
      events: [],
    };
    if (await this.routedToRemote(row, em)) return deferred;
    const fetched = await this.fetch(row, this.config.trackingSyncTimeoutMs);
    if ('error' in fetched) {
      this.logger.warn(
        `tracking ${row.tracking_number} deferred to a job: ${describe(fetched.error)}`,
      );
      return deferred;
    }
    const state = firstTrackingState(untrackedRow(shipment), fetched.update, {
      now,
      limitsFor: (c) => this.limitsFor(c),
    });
    return {
      columns: { ...state.columns },
      dependents: newCheckpointsInsert(state.checkpoints),
      events: state.event ? [state.event] : [],
    };
  }

  /**
   * Adds checkpoints pushed by a carrier or aggregator and recomputes the shipment, in the
   * caller's transaction. The provider is not asked; its last facts are kept.
   */
  async ingest(
    em: EntityManager,
    shipmentId: string,
    checkpoints: readonly ProviderCheckpoint[],
  ): Promise<TrackingOutcome> {
    const [outcome] = await this.apply(
      em,
      [{ shipmentId, checkpoints, source: 'push' }],
      this.clock.now(),
    );
    return outcome;
  }

  /** Tracking limits of a shipment: the carrier's transit limit when known, else the default. */
  limitsFor(originCarrier: string | null): TrackingLimits {
    const carrierLimit = originCarrier ? findCarrier(originCarrier)?.transitLimitDays : undefined;
    return {
      expiredAfterDays: DEFAULT_TRACKING_LIMITS.expiredAfterDays,
      transitLimitDays: carrierLimit ?? this.config.trackingTransitLimitDays,
    };
  }

  private async apply(em: EntityManager, updates: TrackingUpdate[], now: Date) {
    const outcomes = await applyTrackingUpdates(em, updates, {
      now,
      limitsFor: (c) => this.limitsFor(c),
    });
    for (const listener of this.appliedListeners) await listener(em, outcomes, now);
    return outcomes;
  }

  private async fetch(
    row: ShipmentToTrack,
    timeoutMs: number,
  ): Promise<Exclude<Fetched, { deferred: true }>> {
    const number = row.tracking_number;
    if (number === null || number.trim() === '') {
      // Nothing to ask: the engine clears the tracking fields.
      return {
        row,
        update: {
          shipmentId: row.id,
          expectedTrackingNumber: number,
          checkpoints: [],
          facts: {},
          source: 'provider',
        },
      };
    }
    try {
      const result: TrackingResult = await withTimeout(
        this.providers.track(number, row.origin_carrier, {
          now: this.clock.now(),
          createdAt: row.created_at,
        }),
        timeoutMs,
        `tracking ${number}`,
      );
      return {
        row,
        update: {
          shipmentId: row.id,
          expectedTrackingNumber: number,
          checkpoints: result.checkpoints,
          facts: result.facts,
          source: 'provider',
        },
      };
    } catch (error) {
      return { row, error };
    }
  }

  private failure(row: ShipmentToTrack, error: unknown, now: Date): TrackFailure {
    // Refused credentials are not asked again until someone updates them (no retry storm).
    const transient =
      TrackingProviderError.isRetryable(error) && !(error instanceof ProviderCredentialsRejected);
    const hint = error instanceof TrackingProviderError ? error.retryAfterMs : null;
    const backoff = transient
      ? Math.min(RETRY_MAX_MS, hint ?? RETRY_BASE_MS * 2 ** Math.min(row.tracking_attempts, 10))
      : RETRY_MAX_MS;
    this.logger.warn(`tracking ${row.tracking_number} failed: ${describe(error)}`);
    return {
      shipmentId: row.id,
      error: tenantReason(error),
      transient,
      retryAt: new Date(now.getTime() + backoff),
    };
  }

  /**
   * Deferred shipments (a registration batch to fill) are due again a little later, when the
   * leftovers of every node's rounds are claimed together.
   */
  private async dueAgain(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(
      `UPDATE shipment SET next_check_at = $2 WHERE id = ANY($1::uuid[]) AND next_check_at IS NOT NULL`,
      [ids, new Date(this.clock.now().getTime() + REGISTRATION_DEFER_MS)],
    );
  }

  private async reschedule(failures: TrackFailure[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE shipment s SET next_check_at = f.retry_at, tracking_attempts = s.tracking_attempts + 1,
              tracking_error = f.error
         FROM jsonb_to_recordset($1::jsonb) AS f(id uuid, retry_at timestamptz, error text)
        WHERE s.id = f.id AND s.next_check_at IS NOT NULL`,
      [
        JSON.stringify(
          failures.map((f) => ({ id: f.shipmentId, retry_at: f.retryAt, error: f.error })),
        ),
      ],
    );
  }
}

/** The operator's log line of a failure: its message and what the provider's server said. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const detail = (error as { detail?: unknown } | null)?.detail;
  return typeof detail === 'string' && detail !== ''
    ? `${message} (provider said: ${detail})`
    : message;
}

/**
 * What the tenant reads in `trackingError`: provider failures and timeouts, worded by us (never
 * a server's answer, see TrackingProviderError); anything else (a bug, a library error that may
 * quote what it read) only as a fixed phrase, its text going to the operator's log.
 */
function tenantReason(error: unknown): string {
  return error instanceof TrackingProviderError ||
    error instanceof ProviderCredentialsRejected ||
    error instanceof TimeoutError
    ? error.message
    : 'tracking failed (unexpected error)';
}
