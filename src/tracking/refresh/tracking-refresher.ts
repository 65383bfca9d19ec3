import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { pausePoint } from '../../common/pause-point';
import { PeriodicTask } from '../../common/periodic-task';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { JobQueue } from '../../jobs/job-queue';
import { Clock } from '../clock';
import { TRACKING_STATUSES, isFinal } from '../statuses';
import { chunk } from '../tracking-service/concurrency';
import { TrackingService } from '../tracking-service/tracking.service';
import type { SqlRunner } from '../../database/query';
import { ShipmentTrackingStore } from '../../shipments/shipment-tracking-store';

export const REFRESH_QUEUE = 'tracking.refresh';
/** Shipments per refresh job: a multiple of 40, the batch of aggregators such as 17TRACK. */
const JOB_SIZE = 120;
const INTERVAL_NAME = 'tracking-refresh';
const UPKEEP_INTERVAL_NAME = 'tracking-remote-upkeep';

const FINAL_CODES = TRACKING_STATUSES.filter((s) => isFinal(s.code)).map((s) => s.code);

/** The default lease of claimed shipments (TRACKING_REFRESH_LEASE_SECONDS). */
export const REFRESH_LEASE_MS = 10 * 60_000;

/** A refresh job: shipments claimed together, and the lease (next_check_at) the claim set. */
interface RefreshJob {
  ids: string[];
  lease?: string;
}

export interface RefreshRound {
  claimed: number;
  refreshed: number;
  failed: number;
  statusChanges: number;
}

/**
 * Refreshes due shipments in the background. Due means `next_check_at <= now` (the engine's
 * nextCheckAt; null for final statuses, so they are never refreshed). Any number of nodes can
 * run rounds at once: a round claims its shipments with one statement that skips rows locked
 * by another round (FOR UPDATE SKIP LOCKED) and leases them by moving next_check_at forward,
 * so no shipment is refreshed by two rounds at once; a node that dies mid-round leaves its
 * shipments due again when the lease ends, so restarts lose nothing.
 *
 * The periodic tick (TRACKING_REFRESH_INTERVAL_SECONDS, on unless TRACKING_REFRESH_ENABLED is
 * false or NODE_ENV=test) claims a batch and enqueues it as durable jobs in the same transaction,
 * so the work spreads over every node running job workers. `runBatch()` claims and refreshes
 * inline: tests, the `refresh` CLI command and the benchmark call it.
 */
@Injectable()
export class TrackingRefresher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(TrackingRefresher.name);
  private periodicTask?: PeriodicTask;
  private upkeepTask?: PeriodicTask;

  constructor(
    private readonly dataSource: DataSource,
    private readonly tracking: TrackingService,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly scheduler: SchedulerRegistry,
    private readonly shipments: ShipmentTrackingStore,
  ) {
    jobs.declareQueue({ name: REFRESH_QUEUE, retryLimit: 3, retryDelay: 30 });
    jobs.work<RefreshJob>({
      queue: REFRESH_QUEUE,
      handle: async ({ ids, lease }) => {
        // A retried job (its node died halfway) refreshes only what its claim still holds:
        // shipments already refreshed, or claimed again after the lease, are left alone.
        await this.tracking.trackMany(lease ? await this.stillLeased(ids, new Date(lease)) : ids);
        await pausePoint('tracking.refresh.applied');
      },
    });
  }

  get enabled(): boolean {
    return this.config.trackingRefreshEnabled ?? this.config.nodeEnv !== 'test';
  }

  private get periodic(): PeriodicTask {
    return (this.periodicTask ??= new PeriodicTask(INTERVAL_NAME, this.scheduler, this.logger));
  }

  private get upkeep(): PeriodicTask {
    return (this.upkeepTask ??= new PeriodicTask(
      UPKEEP_INTERVAL_NAME,
      this.scheduler,
      this.logger,
    ));
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    const intervalMs = this.config.trackingRefreshIntervalSeconds * 1000;
    this.periodic.start(intervalMs, () => this.enqueueDue());
    // Stops at remote providers that failed before and are due again (claims skip other nodes').
    this.upkeep.start(intervalMs, () => this.tracking.remoteUpkeep());
  }

  async onModuleDestroy(): Promise<void> {
    await this.periodic.stop();
    await this.upkeep.stop();
  }

  /**
   * Claims up to `limit` due shipments, oldest due first, and leases them. Runs in the given
   * transaction, or on its own (autocommit) without one.
   */
  async claimDue(
    limit: number,
    runner: SqlRunner = this.dataSource,
    lease = this.leaseUntil(),
  ): Promise<string[]> {
    return this.shipments.claimDue(runner, {
      now: this.clock.now(),
      limit,
      lease,
      finalStatuses: FINAL_CODES,
    });
  }

  /** Until when a claim made now holds its shipments (TRACKING_REFRESH_LEASE_SECONDS). */
  private leaseUntil(): Date {
    return new Date(this.clock.now().getTime() + this.config.trackingRefreshLeaseSeconds * 1000);
  }

  /** The shipments of `ids` whose claim with this lease still stands (not yet refreshed). */
  private async stillLeased(ids: string[], lease: Date): Promise<string[]> {
    return this.shipments.stillLeased(this.dataSource, ids, lease);
  }

  /**
   * One round on this node: the remote providers' due upkeep (retried stops), then claim up to
   * `limit` due shipments and refresh them now.
   */
  async runBatch(limit = this.config.trackingRefreshBatchSize): Promise<RefreshRound> {
    await this.tracking.remoteUpkeep();
    const ids = await this.claimDue(limit);
    const report = await this.tracking.trackMany(ids);
    return {
      claimed: ids.length,
      refreshed: report.outcomes.filter((o) => o.applied).length,
      failed: report.failures.length,
      statusChanges: report.outcomes.filter((o) => o.statusChanged).length,
    };
  }

  /** Rounds until nothing is due; returns the totals. */
  async runUntilIdle(limit = this.config.trackingRefreshBatchSize): Promise<RefreshRound> {
    const total: RefreshRound = { claimed: 0, refreshed: 0, failed: 0, statusChanges: 0 };
    for (;;) {
      const round = await this.runBatch(limit);
      total.claimed += round.claimed;
      total.refreshed += round.refreshed;
      total.failed += round.failed;
      total.statusChanges += round.statusChanges;
      if (round.claimed < limit) return total;
    }
  }

  /**
   * The periodic tick: claims a batch and enqueues it as refresh jobs, atomically (a claim
   * without its job would wait for the lease). Skipped while earlier jobs are still queued.
   */
  async enqueueDue(limit = this.config.trackingRefreshBatchSize): Promise<number> {
    if ((await this.jobs.pending(REFRESH_QUEUE)) >= Math.ceil(limit / JOB_SIZE)) return 0;
    return this.dataSource.transaction(async (em) => {
      const lease = this.leaseUntil();
      const ids = await this.claimDue(limit, em, lease);
      for (const part of chunk(ids, JOB_SIZE)) {
        const job: RefreshJob = { ids: part, lease: lease.toISOString() };
        await this.jobs.send(REFRESH_QUEUE, job, { runner: em });
      }
      return ids.length;
    });
  }
}
