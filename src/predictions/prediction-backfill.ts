import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../common/periodic-task';
import { AppConfig } from '../config/app-config';
import { isDatabaseUnavailable } from '../database/outage/database-failure';
import { ShipmentPredictionStore } from '../shipments/shipment-prediction-store';
import { Clock } from '../tracking/clock';
import { DECIDABLE_STATUSES } from './model/attention';
import { PredictionBackfillStore, type BackfillResult } from './prediction-backfill-store';
import { PredictionRecompute } from './prediction-recompute';
import { PredictionWriter } from './prediction-writer';
import { ShipmentFactsSource } from './shipment-facts-source';

const INTERVAL_MS = 60_000;
/** A claim's lease, renewed after every page: a node that dies leaves the team to another. */
const LEASE_MS = 10 * 60_000;
/** Parcels decided per transaction. */
const PAGE = 500;
/** A team that failed this often waits for an operator (`prediction-backfill --queue`). */
const MAX_ATTEMPTS = 5;
const RETRY_MS = 10 * 60_000;
/** Long backfills say how far they are this often. */
const PROGRESS_EVERY_MS = 10_000;

/**
 * Counts the history of teams whose shipments predate predictions into the aggregates, and
 * gives their parcels on the way a first window and attention, in the background: a database
 * upgraded from before predictions needs no command (its migration queues those teams).
 * Once a minute on nodes that run background work (JOB_WORKERS_ENABLED), one team at a time
 * (`prediction_backfill`, a lease); the time is logged, with progress for large teams.
 * First decisions of old parcels are written without events: a parcel that has been in an
 * exception for weeks is not news to send to webhooks (its attention shows in lists and
 * counts). The aggregates stay exact meanwhile: the rebuild takes each shipment's lock, as
 * every writer does (PredictionRecompute.rebuild).
 */
@Injectable()
export class PredictionBackfill implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PredictionBackfill.name);
  private readonly periodic: PeriodicTask;

  constructor(
    private readonly db: DataSource,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly queue: PredictionBackfillStore,
    private readonly recompute: PredictionRecompute,
    private readonly writer: PredictionWriter,
    private readonly shipments: ShipmentPredictionStore,
    private readonly source: ShipmentFactsSource,
    scheduler: SchedulerRegistry,
  ) {
    this.periodic = new PeriodicTask('prediction-backfill', scheduler, this.logger);
  }

  onApplicationBootstrap(): void {
    if (this.config.jobWorkersEnabled) this.periodic.start(INTERVAL_MS, () => this.runUntilIdle());
  }

  async onModuleDestroy(): Promise<void> {
    await this.periodic.stop();
  }

  /** Backfills queued teams until none is due; answers how many it took. */
  async runUntilIdle(): Promise<number> {
    let teams = 0;
    while (await this.runOnce()) teams++;
    return teams;
  }

  /** Claims the oldest due team and backfills it; false when none was due. */
  async runOnce(): Promise<boolean> {
    const now = this.clock.now();
    const claimed = await this.queue.claim(this.db, now, this.leaseFrom(now), MAX_ATTEMPTS);
    if (!claimed) return false;
    const { teamId } = claimed;
    const started = Date.now();
    try {
      const workspaces = await this.source.workspacesOfTeam(this.db, teamId);
      const result = await this.backfill(teamId, workspaces);
      await this.queue.finish(this.db, teamId, result, this.clock.now());
      this.logger.log(
        `predictions backfill: team ${teamId} done in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
          `${result.shipments} shipment(s) counted, ${result.contributions} contribution(s) written, ` +
          `${result.decided} parcel(s) given a first decision`,
      );
    } catch (error) {
      // An outage is DatabaseOutage's to report; the lease hands the team on when it ends.
      if (isDatabaseUnavailable(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      const retryAt = new Date(this.clock.now().getTime() + RETRY_MS);
      await this.queue.fail(this.db, teamId, message, retryAt);
      this.logger.error(
        `predictions backfill: team ${teamId} failed (attempt ${claimed.attempts} of ${MAX_ATTEMPTS}` +
          `${claimed.attempts < MAX_ATTEMPTS ? `, again from ${retryAt.toISOString()}` : ''}): ${message}`,
      );
    }
    return true;
  }

  /** The team's history counted, then its undecided parcels decided, a page at a time. */
  private async backfill(teamId: string, workspaces: readonly string[]): Promise<BackfillResult> {
    let shipments = 0;
    let said = Date.now();
    const progress = async (line: string) => {
      await this.queue.renew(this.db, teamId, this.leaseFrom(this.clock.now()));
      if (Date.now() - said < PROGRESS_EVERY_MS) return;
      said = Date.now();
      this.logger.log(`predictions backfill: team ${teamId}: ${line}`);
    };
    let contributions = await this.recompute.rebuild(teamId, (walk, done, total) => {
      if (walk === 'shipments') shipments = total;
      return progress(`${done} of ${total} ${walk} counted`);
    });
    let decided = 0;
    let after: string | null = null;
    for (;;) {
      const ids = await this.shipments.undecided(
        this.db,
        workspaces,
        DECIDABLE_STATUSES,
        after,
        PAGE,
      );
      if (ids.length === 0) break;
      contributions += await this.db.transaction(async (em) => {
        await this.source.lock(em, ids);
        return this.writer.refresh(em, ids, this.clock.now(), { announce: false });
      });
      decided += ids.length;
      after = ids[ids.length - 1];
      await progress(`${decided} parcels decided`);
    }
    return { shipments, contributions, decided };
  }

  private leaseFrom(now: Date): Date {
    return new Date(now.getTime() + LEASE_MS);
  }
}
