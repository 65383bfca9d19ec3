import { TrackingApplyExtensions } from './tracking-apply-extensions';
import { Injectable, Logger } from '@nestjs/common';
import { pausePoint } from '../../common/pause-point';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { JobQueue } from '../../jobs/job-queue';
import { removeNotesOfDeleted } from '../../notes/record-notes';
import { findCarrier } from '../carriers';
import { Clock } from '../clock';
import { DEFAULT_TRACKING_LIMITS, type TrackingLimits } from '../engine';
import type { ProviderCheckpoint, TrackingResult } from '../providers';
import type { TrackingCredentials } from '../providers/remote/provider-credentials-store';
import { PUSH_SAFETY_POLL_MS, RemoteTracking } from '../providers/remote/remote-tracking';
import { isFinal } from '../statuses';
import {
  ShipmentTrackingStore,
  type ShipmentToTrack,
} from '../../shipments/shipment-tracking-store';
import { chunk } from './concurrency';
import { TrackingFetcher, type RemoteApplied } from './tracking-fetcher';
import { describeFailure, trackingFailure, type TrackFailure } from './tracking-failures';

export type { TrackFailure } from './tracking-failures';
import type { NewShipment, NewShipmentTracking } from '../../shipments/shipment-write-extensions';
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
/** Numbers left out of a partial registration batch are due again after this long. */
export const REGISTRATION_DEFER_MS = 60_000;

export interface TrackReport {
  outcomes: TrackingOutcome[];
  failures: TrackFailure[];
}

export interface TrackOptions {
  timeoutMs?: number;
  concurrency?: number;
}

/** A result pushed by a provider for shipments it tracks (see src/tracking/webhooks). */
export interface PushedResult {
  shipmentIds: readonly string[];
  result: TrackingResult;
}

/**
 * Tracks shipments: asks the provider registry about each shipment's number and carrier
 * (outside any transaction: no lock is held while a carrier answers), then applies the
 * results set-based in short transactions (tracking-writer.ts). Failures are rescheduled with
 * backoff, never lost: the shipment's next_check_at is the durable reminder.
 */
@Injectable()
export class TrackingService {
  private readonly logger = new Logger(TrackingService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly fetcher: TrackingFetcher,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly jobs: JobQueue,
    private readonly remote: RemoteTracking,
    private readonly shipments: ShipmentTrackingStore,
    private readonly extensions: TrackingApplyExtensions,
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

  /** Re-tracks one shipment now. */
  async track(shipmentId: string, options: TrackOptions = {}): Promise<TrackReport> {
    return this.trackMany([shipmentId], options);
  }

  /** Re-tracks shipments now: provider calls in parallel, results in batched transactions. */
  async trackMany(ids: readonly string[], options: TrackOptions = {}): Promise<TrackReport> {
    if (ids.length === 0) return { outcomes: [], failures: [] };
    const rows = await this.shipments.toTrack(this.dataSource, ids);
    const timeoutMs = options.timeoutMs ?? BACKGROUND_PROVIDER_TIMEOUT_MS;
    const { fetched, remote, remoteIds } = await this.fetcher.fetchAll(
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
    const rows = applied.length === 0 ? [] : await this.shipments.toTrack(this.dataSource, applied);
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
      await this.shipments.startNewJourney(em, shipmentId);
    }
    const [row] = await this.shipments.toTrack(em, [shipmentId]);
    if (!row) return null;
    if (await this.fetcher.routedToRemote(row, em)) {
      // Never inside the write's transaction: a remote provider's calls (shared budget,
      // registration batches) would hold this connection while waiting for others.
      await this.shipments.dueAt(em, shipmentId, now);
      await this.jobs.send(TRACK_QUEUE, { shipmentId }, { runner: em, singletonKey: shipmentId });
      return null;
    }
    const fetched = await this.fetcher.fetch(row, this.config.trackingSyncTimeoutMs);
    if ('error' in fetched) {
      this.logger.warn(
        `tracking ${row.tracking_number} deferred to a job: ${describeFailure(fetched.error)}`,
      );
      await this.shipments.dueAt(em, shipmentId, now);
      await this.jobs.send(TRACK_QUEUE, { shipmentId }, { runner: em, singletonKey: shipmentId });
      return null;
    }
    const [outcome] = await this.apply(em, [fetched.update], now);
    return outcome;
  }

  /**
   * The tracking of a shipment about to be created, decided before its row is inserted so that
   * one INSERT carries it (TrackingOnWrite, a shipment write extension). A local provider (the sandbox,
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
    if (await this.fetcher.routedToRemote(row, em)) return deferred;
    const fetched = await this.fetcher.fetch(row, this.config.trackingSyncTimeoutMs);
    if ('error' in fetched) {
      this.logger.warn(
        `tracking ${row.tracking_number} deferred to a job: ${describeFailure(fetched.error)}`,
      );
      return deferred;
    }
    const state = firstTrackingState(untrackedRow(shipment), fetched.update, {
      now,
      limitsFor: (c) => this.limitsFor(c),
    });
    return {
      columns: { ...state.columns },
      tracked: {
        status: state.columns.tracking_status,
        originCountryIso2: state.columns.origin_country_iso2,
        destinationCountryIso2: state.columns.destination_country_iso2,
        carrierDate: state.columns.tracking_facts.expectedDeliveryDate ?? null,
        checkpoints: state.checkpoints.flatMap((c) =>
          c.checkpoint_date ? [{ at: new Date(c.checkpoint_date), status: c.status }] : [],
        ),
      },
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
    return applyTrackingUpdates(
      em,
      updates,
      { now, limitsFor: (c) => this.limitsFor(c) },
      this.extensions,
    );
  }

  private failure(row: ShipmentToTrack, error: unknown, now: Date): TrackFailure {
    this.logger.warn(`tracking ${row.tracking_number} failed: ${describeFailure(error)}`);
    return trackingFailure(row, error, now);
  }

  /**
   * Deferred shipments (a registration batch to fill) are due again a little later, when the
   * leftovers of every node's rounds are claimed together.
   */
  private async dueAgain(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const at = new Date(this.clock.now().getTime() + REGISTRATION_DEFER_MS);
    await this.shipments.dueAgainAt(this.dataSource, ids, at);
  }

  private async reschedule(failures: TrackFailure[]): Promise<void> {
    await this.shipments.reschedule(this.dataSource, failures);
  }
}
