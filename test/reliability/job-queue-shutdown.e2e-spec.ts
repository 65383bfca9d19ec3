import PgBoss from 'pg-boss';
import type { AppConfig } from '../../src/config/app-config';
import type { DatabaseOutage } from '../../src/database/outage/database-outage';
import { isRefused, JobDatabase } from '../../src/jobs/job-database';
import { JOB_SCHEMA, JobQueue } from '../../src/jobs/job-queue';
import { until } from '../support/until';
import { createSpecDatabase, type SpecDatabase } from './support/spec-database';

const APP = 'job-queue-shutdown-spec';

/** Whether `promise` has settled by now (its reactions run before the next macrotask). */
function isSettled(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setImmediate(() => resolve(false))),
  ]);
}

/**
 * Stopping the job queue answers every statement pg-boss handed to its pool. A pg-boss worker
 * whose poll was still queued for a connection when its own pool ended used to wait forever:
 * node-postgres never answers a request queued before `end()`, the worker never stopped, and
 * pg-boss kept checking on it every second, so the process outlived the closed application.
 */
describe('job queue shutdown', () => {
  let spec: SpecDatabase;

  beforeAll(async () => {
    spec = await createSpecDatabase('jobs_shutdown');
  });
  afterAll(async () => {
    await spec?.drop();
  });

  /** Waits until `count` statements of ours run `pg_sleep` on the server. */
  const sleeping = (count: number) =>
    until(async () => {
      const [{ n }] = await spec.db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE application_name = $1 AND state = 'active' AND query LIKE 'SELECT pg_sleep%'`,
        [APP],
      );
      return n === count;
    });

  it('close() refuses a statement still queued for a connection and then ends the pool', async () => {
    const db = new JobDatabase(
      { connectionString: spec.url, max: 1, application_name: APP },
      () => undefined,
    );
    const running = db.executeSql('SELECT pg_sleep(0.5)');
    await sleeping(1);
    const queued = db.executeSql('SELECT 1 AS one');
    const closed = db.close();

    await expect(running).resolves.toMatchObject({ rowCount: 1 });
    expect(isRefused(await queued)).toBe(true);
    await closed;
    expect(isRefused(await db.executeSql('SELECT 1'))).toBe(true);
  });

  it('answers the polls of workers waiting for a connection when pg-boss stops', async () => {
    const db = new JobDatabase(
      { connectionString: spec.url, max: 2, application_name: APP },
      () => undefined,
    );
    const boss = new PgBoss({ db, schema: JOB_SCHEMA, schedule: false, supervise: false });
    await boss.start();
    const queues = ['shutdown.a', 'shutdown.b', 'shutdown.c', 'shutdown.d'];
    for (const name of queues) await boss.createQueue(name);
    const statements = jest.spyOn(db, 'executeSql');

    // Both connections busy: every worker's first poll waits in the pool's queue.
    const busy = [1, 2].map(() => db.executeSql('SELECT pg_sleep(1)'));
    await sleeping(2);
    for (const name of queues) {
      await boss.work(name, { pollingIntervalSeconds: 1 }, async () => undefined);
    }
    await boss.stop({ graceful: true, wait: true, timeout: 1000 });
    await db.close();
    await Promise.all(busy);

    const polls = statements.mock.results.map((r) => r.value as Promise<unknown>);
    expect(polls.length).toBeGreaterThanOrEqual(2 + queues.length);
    const settled = await Promise.all(polls.map(isSettled));
    expect(settled.every(Boolean)).toBe(true);
  });

  it('answers the report of a handler that ends after the stop: its job was failed then', async () => {
    const config = { jobWorkersEnabled: true, jobMaintenanceIntervalSeconds: 60 } as AppConfig;
    const outage = { report: () => undefined } as unknown as DatabaseOutage;
    const queue = new JobQueue(spec.db, config, outage);
    queue.declareQueue({ name: 'shutdown.outlived', retryLimit: 0 });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let end!: (error: Error) => void;
    const ended = new Promise<void>((_, reject) => (end = reject));
    queue.work({
      queue: 'shutdown.outlived',
      handle: async () => {
        started();
        await ended;
      },
    });
    await queue.onModuleInit();
    await queue.onApplicationBootstrap();
    const id = await queue.send('shutdown.outlived', {});
    await running;
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      // The handler outlives the stop's grace (10 s): pg-boss fails its job, the pool closes.
      await queue.onModuleDestroy();
      // It ends now, failing on the closed database. pg-boss's report of that end (a `fail`
      // nobody awaits) used to be rejected by the closed pool, unhandled: the process ended.
      end(new Error('connection terminated'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(unhandled).toEqual([]);
      const [job] = await spec.db.query(`SELECT state FROM ${JOB_SCHEMA}.job WHERE id = $1`, [id]);
      expect(job.state).toBe('failed');
    } finally {
      process.off('unhandledRejection', record);
    }
  }, 60_000);
});
