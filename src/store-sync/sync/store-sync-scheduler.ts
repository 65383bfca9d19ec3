import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../../common/periodic-task';
import { AppConfig } from '../../config/app-config';
import { JobQueue } from '../../jobs/job-queue';
import { STORE_SYNC_QUEUE, StoreSyncQueue, type StoreSyncJob } from './store-sync-queue';
import { StoreSyncRunner } from './store-sync-runner';
import { StoreSyncStateStore } from './store-sync-state-store';

const INTERVAL_NAME = 'store-sync-due';
/** Workflows claimed per tick (the rest wait for the next one). */
const CLAIM_LIMIT = 100;

/**
 * Periodic pulls and the run jobs. Every STORE_SYNC_INTERVAL_SECONDS a node with
 * STORE_SYNC_ENABLED claims the workflows whose pull is due (SKIP LOCKED: each claimed by one
 * node) and queues a run job for each in the claiming transaction; JOB_WORKERS_ENABLED nodes
 * run the jobs (StoreSyncRunner), one run per workflow at a time whatever the node.
 */
@Injectable()
export class StoreSyncScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(StoreSyncScheduler.name);
  private periodic?: PeriodicTask;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly scheduler: SchedulerRegistry,
    private readonly state: StoreSyncStateStore,
    private readonly queue: StoreSyncQueue,
    runner: StoreSyncRunner,
    jobs: JobQueue,
  ) {
    jobs.work<StoreSyncJob>({
      queue: STORE_SYNC_QUEUE,
      handle: async ({ workflowId, trigger }) => {
        await runner.run(workflowId, trigger);
      },
    });
  }

  get enabled(): boolean {
    return this.config.storeSyncEnabled ?? this.config.nodeEnv !== 'test';
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.periodic = new PeriodicTask(INTERVAL_NAME, this.scheduler, this.logger);
    this.periodic.start(this.config.storeSyncIntervalSeconds * 1000, () => this.queueDue());
  }

  async onModuleDestroy(): Promise<void> {
    await this.periodic?.stop();
  }

  /** Queues a run for each workflow whose pull is due; answers how many. */
  queueDue(now = new Date()): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      const ids = await this.state.claimDue(em, now, CLAIM_LIMIT);
      for (const id of ids) await this.queue.request(id, 'period', { runner: em });
      return ids.length;
    });
  }
}
