/**
 * Shipment list on a large workspace: the API (built `dist/`, production
 * logging) against a bare node:http + pg server running the same SQL, in
 * alternating runs. Reports requests/s and p99 per scenario and their ratio.
 *
 *   npm run build && node -r ts-node/register/transpile-only bench/shipments-list.bench.ts \
 *     [--rows 1000000] [--seconds 8] [--rounds 3] [--connections 8]
 *
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/bench; the
 * database is created, migrated and seeded (once) when needed.
 */
import { spawn, ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { createDataSource } from '../src/database/data-source';
import { runMigrationsLocked } from '../src/database/migration-runner';
import { seedWorkspace } from '../src/seed/bulk-seeder';
import { apiStartArgs, refuseErrors, UNREACHED_BUDGETS } from './lib/bench-setup';
import { median, runLoad } from './lib/load-generator';
import { planCollection } from './lib/plan-collection';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    only: { type: 'string' },
  },
});
const ROWS = Number(values.rows);
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';

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

async function prepare(): Promise<{ token: string; workspaceId: string; userId: string }> {
  await ensureDatabase();
  const db = createDataSource(DB_URL);
  await db.initialize();
  await runMigrationsLocked(db);
  await db.query(
    `CREATE TABLE IF NOT EXISTS bench_seed (rows int PRIMARY KEY, workspace_id uuid, user_id uuid, token text)`,
  );
  let [seed] = await db.query('SELECT * FROM bench_seed WHERE rows = $1', [ROWS]);
  if (!seed) {
    console.error(`seeding ${ROWS} shipments...`);
    const result = await seedWorkspace(db, {
      shipments: ROWS,
      orders: Math.min(ROWS, 100000),
      batch: 50000,
      onProgress: ({ table, rows, total }) => console.error(`  ${table} ${rows}/${total}`),
    });
    console.error(`seeded in ${result.seconds.toFixed(1)} s`);
    await db.query('VACUUM ANALYZE shipment');
    await db.query('INSERT INTO bench_seed VALUES ($1, $2, $3, $4)', [
      ROWS,
      result.workspaceId,
      result.userId,
      result.token,
    ]);
    [seed] = await db.query('SELECT * FROM bench_seed WHERE rows = $1', [ROWS]);
  }
  // Long-lived token for the benchmark user.
  await db.query(
    `UPDATE access_token SET expires_at = now() + interval '30 days' WHERE user_id = $1`,
    [seed.user_id],
  );
  await db.destroy();
  return { token: seed.token, workspaceId: seed.workspace_id, userId: seed.user_id };
}

function start(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m =
        /listening (\d+)/.exec(out) ?? /"port":(\d+)/.exec(out) ?? /http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) =>
      reject(new Error(`${args.join(' ')} exited with ${code}: ${out.slice(-2000)}`)),
    );
  });
}

async function main(): Promise<void> {
  const seed = await prepare();
  const probe = await createDataSource(DB_URL).initialize();
  const [{ tracking_number: oneNumber }] = await probe.query(
    'SELECT tracking_number FROM shipment WHERE workspace_id = $1 ORDER BY created_at LIMIT 1 OFFSET 777',
    [seed.workspaceId],
  );
  await probe.destroy();
  const scenarios = [
    '/shipments',
    '/shipments?trackingStatus=in_transit',
    '/shipments?originCarrier=ups&order%5BcreatedAt%5D=desc',
    `/shipments?trackingNumber=${oneNumber}`,
    '/shipments?order%5BupdatedAt%5D=desc&itemsPerPage=30',
  ];
  if (values.only)
    scenarios.splice(0, scenarios.length, ...scenarios.filter((s) => s.includes(values.only!)));
  const plansFile = join(tmpdir(), `bench-plans-${process.pid}.json`);
  writeFileSync(plansFile, JSON.stringify(await planCollection(DB_URL, seed.userId, scenarios)));

  const port = String(18000 + (process.pid % 1000));
  const common = {
    DATABASE_URL: DB_URL,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: '10',
    CREDENTIALS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
  // The API node under test serves requests only; background work (refresh,
  // job workers, event delivery) runs on worker nodes in such a deployment.
  const apiOnly = {
    TRACKING_REFRESH_ENABLED: 'false',
    JOB_WORKERS_ENABLED: 'false',
    EVENT_DELIVERY_ENABLED: 'false',
    ...UNREACHED_BUDGETS,
  };
  const app = spawn('node', apiStartArgs(), {
    env: { ...process.env, ...common, ...apiOnly, PORT: port, HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitReady(Number(port));
  const bare = await start(
    'node',
    ['-r', 'ts-node/register/transpile-only', 'bench/servers/bare-server.ts'],
    { ...common, PLANS_FILE: plansFile },
  );

  const headers = { Authorization: `Bearer ${seed.token}`, Accept: 'application/ld+json' };
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const rows: string[] = [];
  let errors = 0;
  for (const path of scenarios) {
    const appRuns = [];
    const bareRuns = [];
    await runLoad(`http://127.0.0.1:${port}${path}`, headers, connections, 1); // warm-up
    await runLoad(`http://127.0.0.1:${bare.port}${path}`, headers, connections, 1);
    for (let i = 0; i < Number(values.rounds); i++) {
      appRuns.push(await runLoad(`http://127.0.0.1:${port}${path}`, headers, connections, seconds));
      bareRuns.push(
        await runLoad(`http://127.0.0.1:${bare.port}${path}`, headers, connections, seconds),
      );
    }
    const errs = [...appRuns, ...bareRuns].reduce((n, r) => n + r.errors, 0);
    errors += errs;
    const appRps = median(appRuns.map((r) => r.rps));
    const bareRps = median(bareRuns.map((r) => r.rps));
    const appP99 = median(appRuns.map((r) => r.p99));
    const bareP99 = median(bareRuns.map((r) => r.p99));
    rows.push(
      `| \`${decodeURIComponent(path)}\` | ${appRps.toFixed(0)} | ${bareRps.toFixed(0)} | **${(appRps / bareRps).toFixed(2)}** | ${appP99.toFixed(1)} | ${bareP99.toFixed(1)} | ${errs} |`,
    );
    console.error(rows[rows.length - 1]);
  }
  console.log(
    `\n${ROWS} shipments in one workspace, ${connections} connections, ${values.rounds} alternating rounds of ${seconds}s, medians:\n`,
  );
  console.log('| request | API req/s | bare req/s | ratio | API p99 ms | bare p99 ms | non-200 |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
  refuseErrors(errors);
  app.kill('SIGTERM');
  bare.child.kill('SIGTERM');
}

async function waitReady(port: number): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('API did not become ready');
}

main().then(
  // Children were told to stop; keep-alive sockets must not keep this process waiting.
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
