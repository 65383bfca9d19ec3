/**
 * Background refresh throughput: N due shipments (sandbox numbers of every prefix, seeded with
 * generate_series) refreshed through the real TrackingRefresher (claim with SKIP LOCKED + lease,
 * sandbox provider, set-based apply: checkpoint upserts, status engine, shipment update, outbox),
 * by `--loops` concurrent refresh loops (what several nodes do) in one process.
 *
 *   node -r ts-node/register/transpile-only bench/tracking-refresh.bench.ts \
 *     [--shipments 100000] [--loops 4] [--batch 500]
 *
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/bench_tracking (created and
 * migrated when needed). Each run deletes the previous run's shipments and seeds new ones.
 * Exits 1 when a shipment is left untracked or was tracked twice.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source';
import { runMigrationsLocked } from '../src/database/migration-runner';
import { SANDBOX_PREFIX_STATUSES } from '../src/tracking/providers/sandbox';

const { values } = parseArgs({
  options: {
    shipments: { type: 'string', default: '100000' },
    loops: { type: 'string', default: '4' },
    batch: { type: 'string', default: '500' },
  },
});
const SHIPMENTS = Number(values.shipments);
const LOOPS = Number(values.loops);
const BATCH = Number(values.batch);
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_tracking';

async function ensureDatabase(): Promise<void> {
  const url = new URL(DB_URL);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
}

/** A bench workspace with SHIPMENTS due, never tracked shipments. Returns its id. */
async function seed(): Promise<string> {
  await ensureDatabase();
  const db = createDataSource(DB_URL);
  await db.initialize();
  try {
    await runMigrationsLocked(db);
    let [ws] = await db.query(
      `SELECT w.id FROM workspace w JOIN team t ON t.id = w.team_id WHERE t.name = 'bench-tracking'`,
    );
    if (!ws) {
      const [team] = await db.query(
        `INSERT INTO team (name) VALUES ('bench-tracking') RETURNING id`,
      );
      [ws] = await db.query(
        `INSERT INTO workspace (team_id, title) VALUES ($1, 'refresh bench') RETURNING id`,
        [team.id],
      );
    }
    const started = Date.now();
    await db.query(`DELETE FROM outbox_event WHERE workspace_id = $1`, [ws.id]);
    await db.query(`DELETE FROM shipment WHERE workspace_id = $1`, [ws.id]);
    const prefixes = Object.keys(SANDBOX_PREFIX_STATUSES);
    await db.query(
      `INSERT INTO shipment (workspace_id, tracking_number, origin_carrier, created_at, next_check_at)
       SELECT $1, 'TM' || ($2::text[])[1 + g % cardinality($2::text[])] || 'B' || g || 'TM',
              'tm-test', now() - interval '1 day', now() - interval '1 minute'
         FROM generate_series(1, $3) AS g`,
      [ws.id, prefixes, SHIPMENTS],
    );
    await db.query('VACUUM ANALYZE shipment');
    await db.query('VACUUM ANALYZE tracking_checkpoint');
    console.error(
      `seeded ${SHIPMENTS} due shipments in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return ws.id;
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<void> {
  const workspaceId = await seed();
  Object.assign(process.env, {
    DATABASE_URL: DB_URL,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    MIGRATE_ON_START: 'false',
    JOB_WORKERS_ENABLED: 'false',
    TRACKING_REFRESH_ENABLED: 'false',
    DATABASE_POOL_SIZE: String(Math.max(10, LOOPS * 2 + 2)),
  });
  const { AppModule } = await import('../src/app.module');
  const { TrackingRefresher } = await import('../src/tracking/refresh/tracking-refresher');
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error', 'warn'] });
  try {
    const refresher = app.get(TrackingRefresher);
    const db = app.get(DataSource);
    let done = 0;
    const progress = setInterval(() => console.error(`  ${done} refreshed`), 5000);
    const started = process.hrtime.bigint();
    const rounds = await Promise.all(
      Array.from({ length: LOOPS }, async () => {
        const total = { claimed: 0, refreshed: 0, failed: 0 };
        for (;;) {
          const round = await refresher.runBatch(BATCH);
          total.claimed += round.claimed;
          total.refreshed += round.refreshed;
          total.failed += round.failed;
          done += round.refreshed;
          if (round.claimed === 0) return total;
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(progress);
    const refreshed = rounds.reduce((n, r) => n + r.refreshed, 0);
    const claimed = rounds.reduce((n, r) => n + r.claimed, 0);
    const [check] = await db.query(
      `SELECT count(*) FILTER (WHERE tracking_status IS NULL)::int AS untracked,
              count(*) FILTER (WHERE last_tracked_at IS NOT NULL)::int AS tracked,
              (SELECT count(*)::int FROM tracking_checkpoint c JOIN shipment s ON s.id = c.shipment_id
                WHERE s.workspace_id = $1) AS checkpoints,
              (SELECT count(*)::int FROM outbox_event WHERE workspace_id = $1) AS events
         FROM shipment WHERE workspace_id = $1`,
      [workspaceId],
    );
    console.log(
      JSON.stringify(
        {
          shipments: SHIPMENTS,
          loops: LOOPS,
          batch: BATCH,
          claimed,
          refreshed,
          seconds: Number(seconds.toFixed(2)),
          shipmentsPerSecond: Math.round(refreshed / seconds),
          ...check,
          node: process.version,
        },
        null,
        2,
      ),
    );
    if (check.untracked > 0 || claimed !== SHIPMENTS || check.tracked !== SHIPMENTS) {
      console.error('FAILED: some shipments were not refreshed exactly once');
      process.exitCode = 1;
    }
  } finally {
    await app.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
