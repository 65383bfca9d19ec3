import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import PgBoss from 'pg-boss';
import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { AppConfig } from '../config/app-config';
import { withAdvisoryLock } from '../database/advisory-lock';
import { isDatabaseUnavailable } from '../database/outage/database-failure';
import { DatabaseOutage } from '../database/outage/database-outage';
import { reportingClient } from '../database/outage/reporting-client';
import { JOB_SCHEMA, JobDataStore } from './job-data-store';
import { JobDatabase } from './job-database';
import { query, type SqlRunner } from '../database/query';

/** Key of the advisory lock under which a node creates the queues it declares. */
const QUEUE_SETUP_LOCK_KEY = 727_274_002;

export { JOB_SCHEMA } from './job-data-store';

export interface QueueDefinition {
  name: string;
  retryLimit?: number;
  /** Seconds before the first retry; doubled each time with retryBackoff. */
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
}

export interface WorkerDefinition<T> {
  queue: string;
  /** Jobs fetched per poll and handled at once by one node. */
  batchSize?: number;
  /** Fetch jobs with their metadata: `job` is then a PgBoss.JobWithMetadata (retryCount...). */
  includeMetadata?: boolean;
  handle(data: T, job: PgBoss.Job<T>): Promise<void>;
}

export interface SendOptions {
  /** Enqueue within this transaction: the job exists only if the transaction commits. */
  runner?: SqlRunner;
  /** At most one queued job per key (pg-boss singletonKey). */
  singletonKey?: string;
  /** A Date, or seconds from now on the database clock. */
  startAfter?: Date | number;
  /** Per-job retry policy, overriding the queue's (see QueueDefinition). */
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
}

/**
 * Durable background jobs on the application's PostgreSQL (pg-boss; its tables live in the
 * `pgboss` schema, created and upgraded by pg-boss itself on start). Jobs survive restarts:
 * a job whose worker died expires and is retried. Modules declare their queues and workers in
 * their constructors or onModuleInit; queues are created when the application has started,
 * and workers run only where JOB_WORKERS_ENABLED (sending works on every node).
 */
@Injectable()
export class JobQueue implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(JobQueue.name);
  private readonly queues = new Map<string, QueueDefinition>();
  private readonly workers: WorkerDefinition<any>[] = [];
  private boss: PgBoss | null = null;
  private readonly jobData = new JobDataStore();
  private db: JobDatabase | null = null;
  private readonly beforeStopHooks: Array<() => Promise<void>> = [];
  private readyResolve!: () => void;
  private readyReject!: (error: unknown) => void;
  /** Settles once pg-boss runs and every declared queue exists. */
  readonly ready: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly outage: DatabaseOutage,
  ) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    // A send before start-up completes waits; a failed start-up must not be unhandled twice.
    this.ready.catch(() => undefined);
  }

  declareQueue(definition: QueueDefinition): void {
    this.queues.set(definition.name, definition);
  }

  work<T>(definition: WorkerDefinition<T>): void {
    this.workers.push(definition);
  }

  /**
   * Work to finish while the queue still runs at shutdown (e.g. background sends that
   * delete their job when done), awaited before pg-boss stops.
   */
  beforeStop(hook: () => Promise<void>): void {
    this.beforeStopHooks.push(hook);
  }

  async onModuleInit(): Promise<void> {
    const url = (this.dataSource.options as PostgresConnectionOptions).url;
    // A database outage is logged once by DatabaseOutage, not on every poll.
    const logError = (error: Error) => {
      if (!isDatabaseUnavailable(error)) this.logger.error(`job queue: ${error.message}`);
    };
    // pg-boss's pool is ours to close (see JobDatabase). A dropped connection nobody listens
    // to is reported, not thrown (see reportingClient).
    const db = new JobDatabase(
      {
        connectionString: url,
        max: 4,
        application_name: 'shipment-tracking-jobs',
        Client: reportingClient((error) => this.outage.report(error, 'background')),
      },
      logError,
    );
    const boss = new PgBoss({
      db,
      schema: JOB_SCHEMA,
      // No cron schedules: periodic work runs from @nestjs/schedule and claims rows itself.
      schedule: false,
      // How soon a job lost with its node (past its expiry) is failed and retried.
      maintenanceIntervalSeconds: this.config.jobMaintenanceIntervalSeconds,
    });
    boss.on('error', logError);
    try {
      await boss.start();
    } catch (error) {
      await db.close();
      this.readyReject(error);
      throw error;
    }
    this.boss = boss;
    this.db = db;
  }

  async onApplicationBootstrap(): Promise<void> {
    const boss = this.requireBoss();
    try {
      // pg-boss creates a queue with DDL on its shared tables (a partition and foreign keys):
      // nodes starting at once on a new database deadlock unless they take turns.
      await withAdvisoryLock(this.dataSource, QUEUE_SETUP_LOCK_KEY, () => this.createQueues(boss));
      if (this.config.jobWorkersEnabled) {
        for (const w of this.workers) {
          await boss.work<any>(
            w.queue,
            {
              batchSize: w.batchSize ?? 1,
              pollingIntervalSeconds: 1,
              includeMetadata: w.includeMetadata ?? false,
            },
            async (jobs) => {
              for (const job of jobs) await w.handle(job.data, job);
            },
          );
        }
      }
      this.readyResolve();
    } catch (error) {
      this.readyReject(error);
      throw error;
    }
  }

  /** Enqueues a job; returns its id (null when a singleton key already has one queued). */
  async send(queue: string, data: object, options: SendOptions = {}): Promise<string | null> {
    if (!this.queues.has(queue)) throw new Error(`job queue "${queue}" is not declared`);
    await this.ready;
    const boss = this.requireBoss();
    const { runner } = options;
    return boss.send(queue, data, {
      singletonKey: options.singletonKey,
      startAfter: options.startAfter,
      // Only the policy given: pg-boss stores an explicit undefined as NULL, not the queue's.
      ...definedOnly({
        retryLimit: options.retryLimit,
        retryDelay: options.retryDelay,
        retryBackoff: options.retryBackoff,
      }),
      db: runner
        ? {
            executeSql: async (text, values) => ({
              rows: await query(runner, text, values),
            }),
          }
        : undefined,
    });
  }

  /** Deletes a job whatever its state (a worker holding it can no longer complete or retry it). */
  async deleteJob(queue: string, id: string): Promise<void> {
    await this.ready;
    await this.requireBoss().deleteJob(queue, id);
  }

  /** Number of jobs of a queue not yet finished (created, retry or active). */
  async pending(queue: string): Promise<number> {
    await this.ready;
    const db = this.requireBoss().getDb();
    return this.jobData.pending(
      { query: (text, values) => db.executeSql(text, values ?? []) },
      queue,
    );
  }

  async onModuleDestroy(): Promise<void> {
    for (const hook of this.beforeStopHooks) {
      await hook().catch((error: Error) =>
        this.logger.error(`job queue: before stop: ${error.message}`),
      );
    }
    const boss = this.boss;
    this.boss = null;
    // Graceful: running handlers finish (up to 10 s) before the pool closes.
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
    // Then the pool, once the stopped workers' last polls have settled (see JobDatabase).
    await this.db?.close();
    this.db = null;
  }

  private async createQueues(boss: PgBoss): Promise<void> {
    for (const q of this.queues.values()) {
      const options = {
        name: q.name,
        retryLimit: q.retryLimit ?? 5,
        retryDelay: this.config.jobRetryDelaySeconds ?? q.retryDelay ?? 10,
        retryBackoff: q.retryBackoff ?? true,
        expireInSeconds: this.config.jobExpireSeconds ?? q.expireInSeconds ?? 15 * 60,
      };
      await boss.createQueue(q.name, options);
      // An existing queue keeps what it was created with; the current policy wins.
      await boss.updateQueue(q.name, options);
    }
  }

  private requireBoss(): PgBoss {
    if (!this.boss) throw new Error('the job queue is not running');
    return this.boss;
  }
}

/** The entries whose value is not undefined. */
function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}
