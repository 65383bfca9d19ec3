import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../config/load-config';
import type { ModuleRef } from '@nestjs/core';
import { TOKEN_RETENTION } from '../auth/token-retention-store';
import { BATCH_JOB_RETENTION } from '../batches/batch-job-retention-store';
import { OUTBOX_RETENTION } from '../events/outbox-store';
import { EXPORT_RETENTION } from '../exports/export-store';
import type { MediaService } from '../media/media.service';
import { NOTIFICATION_RETENTION } from '../notifications/notification-retention-store';
import { USER_TOKEN_RETENTION } from '../security/user-token-retention-store';
import { WIDGET_LOG_RETENTION } from '../widgets/widget-log-retention-store';
import { WORKFLOW_RUN_RETENTION } from '../workflows/workflow-run-store';
import { RETENTION_RULES } from './retention-rule';
import { RETENTION_LOCK_KEY, RetentionSweeper } from './retention-sweeper';

/** The modules' rules as RETENTION_RULES providers give them (one rule, or a list). */
const PROVIDED = [
  OUTBOX_RETENTION,
  WORKFLOW_RUN_RETENTION,
  EXPORT_RETENTION,
  BATCH_JOB_RETENTION,
  WIDGET_LOG_RETENTION,
  NOTIFICATION_RETENTION,
  TOKEN_RETENTION,
  USER_TOKEN_RETENTION,
];

/** The application's providers of RETENTION_RULES, as ModuleRef finds them. */
const moduleRef = {
  get: (token: unknown, options: { each?: boolean }) => {
    expect(token).toBe(RETENTION_RULES);
    expect(options.each).toBe(true);
    return PROVIDED;
  },
} as unknown as ModuleRef;

/**
 * The sweep's control flow against a scripted connection (the SQL itself runs against
 * PostgreSQL in test/retention.e2e-spec.ts).
 */
function fakeDatabase(options: {
  locked?: boolean;
  unlockFails?: boolean;
  rowsPerTable?: Record<string, number>;
}) {
  const left = { ...(options.rowsPerTable ?? {}) };
  const statements: string[] = [];
  let released: { error: Error | undefined } | null = null;
  const answer = async (sql: string, params: unknown[]) => {
    statements.push(sql);
    if (sql.includes('pg_try_advisory_lock')) {
      expect(params).toEqual([RETENTION_LOCK_KEY]);
      return [{ locked: options.locked ?? true }];
    }
    if (sql.includes('pg_advisory_unlock')) {
      if (options.unlockFails) throw new Error('Connection terminated');
      return [{ pg_advisory_unlock: true }];
    }
    const table = /gone AS \(DELETE FROM "(\w+)"/.exec(sql)?.[1];
    if (!table) throw new Error(`unexpected SQL: ${sql}`);
    const n = Math.min(left[table] ?? 0, params[1] as number);
    left[table] = (left[table] ?? 0) - n;
    return [table === 'outbox_event' ? { n, c0: 2 * n } : { n }];
  };
  const client = {
    release: (error?: Error) => {
      released = { error };
    },
    query: async (sql: string, params: unknown[]) => ({ rows: await answer(sql, params) }),
  };
  const dataSource = {
    driver: { master: { connect: async () => client } },
  } as unknown as DataSource;
  return { dataSource, statements, released: () => released };
}

function sweeperWith(
  dataSource: DataSource,
  env: NodeJS.ProcessEnv = {},
  media: Partial<MediaService> = { sweepOrphanFiles: async () => 0 },
) {
  const scheduler = new SchedulerRegistry();
  const sweeper = new RetentionSweeper(
    dataSource,
    loadConfig(env),
    scheduler,
    media as MediaService,
    moduleRef,
  );
  return { sweeper, scheduler };
}

describe('RetentionSweeper', () => {
  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('deletes every rule in batches, in turns, until each runs out', async () => {
    const db = fakeDatabase({ rowsPerTable: { outbox_event: 5, widget_log: 2, user_token: 1 } });
    const files = jest.fn().mockResolvedValueOnce(2).mockResolvedValueOnce(1);
    const { sweeper } = sweeperWith(db.dataSource, {}, { sweepOrphanFiles: files });
    const result = await sweeper.sweep({ batchSize: 2 });
    expect(result).toMatchObject({ ran: true, complete: true, dryRun: false, files: 3 });
    expect(result.deleted).toMatchObject({
      outbox_event: 5,
      event_delivery: 10,
      widget_log: 2,
      user_token: 1,
      workflow_run: 0,
    });
    const deletes = db.statements
      .map((sql) => /gone AS \(DELETE FROM "(\w+)"/.exec(sql)?.[1])
      .filter(Boolean);
    // Round 1: every table once; then only those whose batch came back full.
    expect(deletes.slice(0, 10)).toContain('user_token');
    expect(deletes.slice(10)).toEqual(['outbox_event', 'widget_log', 'outbox_event']);
    expect(db.statements.at(-1)).toContain('pg_advisory_unlock');
    expect(db.released()).toEqual({ error: undefined });
    // The file queue is drained while batches come back full.
    expect(files).toHaveBeenCalledTimes(2);
    expect(files).toHaveBeenCalledWith(2);
  });

  it('logs one line when something was deleted, nothing otherwise', async () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    await sweeperWith(fakeDatabase({}).dataSource).sweeper.sweep();
    expect(log).not.toHaveBeenCalled();
    await sweeperWith(fakeDatabase({ rowsPerTable: { widget_log: 3 } }).dataSource).sweeper.sweep();
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0][1]).toMatch(/^retention: deleted widget_log 3 in \d+\.\d s$/);
  });

  it('does nothing while another node holds the lock', async () => {
    const db = fakeDatabase({ locked: false, rowsPerTable: { widget_log: 3 } });
    const files = jest.fn();
    const result = await sweeperWith(
      db.dataSource,
      {},
      { sweepOrphanFiles: files },
    ).sweeper.sweep();
    expect(result).toMatchObject({ ran: false, complete: false });
    expect(db.statements).toHaveLength(1);
    expect(files).not.toHaveBeenCalled();
    expect(db.released()).toEqual({ error: undefined });
  });

  it('discards the connection when the lock cannot be released (its session ends, the lock too)', async () => {
    const db = fakeDatabase({ unlockFails: true, rowsPerTable: { widget_log: 1 } });
    const result = await sweeperWith(db.dataSource).sweeper.sweep();
    expect(result.deleted.widget_log).toBe(1);
    expect(db.released()).toEqual({ error: new Error('Connection terminated') });
  });

  it('starts no batch once the budget is spent, and says the sweep is incomplete', async () => {
    const db = fakeDatabase({ rowsPerTable: { outbox_event: 100 } });
    const { sweeper } = sweeperWith(db.dataSource);
    const result = await sweeper.sweep({ batchSize: 10, budgetMs: 0 });
    expect(result).toMatchObject({ ran: true, complete: false });
    expect(result.deleted.outbox_event).toBe(0);
    expect(db.statements.at(-1)).toContain('pg_advisory_unlock');
  });

  it('skips categories kept forever', async () => {
    const db = fakeDatabase({ rowsPerTable: { widget_log: 3, user_token: 3 } });
    const result = await sweeperWith(db.dataSource, {
      RETENTION_DAYS_WIDGET_LOGS: '0',
    }).sweeper.sweep();
    expect(result.deleted).toMatchObject({ widget_log: 0, user_token: 3 });
    expect(result.cutoffs.widgetLogs).toBeNull();
    expect(db.statements.some((sql) => sql.includes('"widget_log"'))).toBe(false);
  });

  describe('periodic sweep', () => {
    it.each([
      [{ NODE_ENV: 'test' }, false],
      [{ NODE_ENV: 'test', RETENTION_ENABLED: 'true' }, true],
      [{ NODE_ENV: 'production' }, true],
      [{ NODE_ENV: 'development', RETENTION_ENABLED: 'false' }, false],
    ])('with %j runs: %s', async (env, runs) => {
      const { sweeper, scheduler } = sweeperWith(fakeDatabase({}).dataSource, env);
      sweeper.onApplicationBootstrap();
      expect(scheduler.doesExist('interval', 'retention')).toBe(runs);
      await sweeper.onModuleDestroy();
      expect(scheduler.doesExist('interval', 'retention')).toBe(false);
    });
  });
});
