import { spawn, ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source';
import { runMigrationsLocked } from '../../src/database/migration-runner';
import { seedWorkspace } from '../../src/seed/bulk-seeder';

/**
 * The node arguments of `npm start` (V8 flags and the entry point), so every benchmark runs
 * the API exactly as it is started in production. `--max-semi-space-size=64`: a larger young
 * generation, so the short-lived objects of a request die in fewer scavenges (measured: about
 * 8 % less CPU per small request; bench/README.md).
 */
export function apiStartArgs(): string[] {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } })
    .scripts.start;
  const [command, ...args] = start.trim().split(/\s+/);
  if (command !== 'node') throw new Error(`npm start is not a node command: ${start}`);
  return args;
}

/**
 * For a bench that runs the service in its own process (the store import, the predictions'
 * refresh): true when this process lacks the V8 flags of `npm start`, after starting itself
 * again with them (the caller then returns; the exit code follows the child's). The service
 * is measured as production runs it.
 */
export function rerunAsStarted(): boolean {
  const flags = apiStartArgs().filter((arg) => arg.startsWith('--'));
  if (flags.every((flag) => process.execArgv.includes(flag))) return false;
  const child = spawn(process.execPath, [...flags, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 1));
  return true;
}

/** Creates the benchmark's own database when missing (never touches another one). */
export async function ensureDatabase(dbUrl: string): Promise<void> {
  const url = new URL(dbUrl);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
}

/**
 * For a bench that runs the service in its own process: its database created and migrated
 * when missing, and the environment of a service that only does what the bench drives (no
 * job workers, no tracking refresh loop, no migration at start), `extra` on top.
 */
export async function prepareServiceProcess(
  dbUrl: string,
  extra: Record<string, string> = {},
): Promise<void> {
  await ensureDatabase(dbUrl);
  const setup = createDataSource(dbUrl);
  await setup.initialize();
  await runMigrationsLocked(setup);
  await setup.destroy();
  Object.assign(process.env, {
    DATABASE_URL: dbUrl,
    // Not `production`: it would ask for the deployment's secrets (credentials key, ...).
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    LOG_LEVEL: 'warn',
    MIGRATE_ON_START: 'false',
    JOB_WORKERS_ENABLED: 'false',
    TRACKING_REFRESH_ENABLED: 'false',
    ...extra,
  });
}

/**
 * CPU time (µs) used so far by the server processes of this database's connections (the
 * service's pool: they live through the run), from /proc: the database's share of the work,
 * which a rate alone hides on a shared machine. A connection gone since the read counts 0.
 */
export async function databaseCpuUs(db: DataSource): Promise<number> {
  const rows: { pid: number }[] = await db.query(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`,
  );
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // Not readable here, or closed.
    }
  }
  return (ticks * 1e6) / CLOCK_TICKS;
}
/** USER_HZ of /proc/<pid>/stat (100 on Linux). */
const CLOCK_TICKS = 100;

export interface SeededWorkspace {
  rows: number;
  workspaceId: string;
  userId: string;
  token: string;
}

/**
 * A workspace of `rows` shipments (and up to 100 000 orders) seeded once per database with the
 * project's bulk seeder and remembered in `bench_seed`; its token is made long-lived.
 */
export async function seededWorkspace(db: DataSource, rows: number): Promise<SeededWorkspace> {
  await db.query(
    `CREATE TABLE IF NOT EXISTS bench_seed (rows int PRIMARY KEY, workspace_id uuid, user_id uuid, token text)`,
  );
  let [seed] = await db.query('SELECT * FROM bench_seed WHERE rows = $1', [rows]);
  if (!seed) {
    console.error(`seeding ${rows} shipments...`);
    const result = await seedWorkspace(db, {
      shipments: rows,
      orders: Math.min(rows / 10, 100000),
      batch: 50000,
      onProgress: ({ table, rows: done, total }) => console.error(`  ${table} ${done}/${total}`),
    });
    console.error(`seeded in ${result.seconds.toFixed(1)} s`);
    await db.query('VACUUM ANALYZE shipment');
    await db.query('INSERT INTO bench_seed VALUES ($1, $2, $3, $4)', [
      rows,
      result.workspaceId,
      result.userId,
      result.token,
    ]);
    [seed] = await db.query('SELECT * FROM bench_seed WHERE rows = $1', [rows]);
  }
  await db.query(
    `UPDATE access_token SET expires_at = now() + interval '30 days' WHERE user_id = $1`,
    [seed.user_id],
  );
  return { rows, workspaceId: seed.workspace_id, userId: seed.user_id, token: seed.token };
}

/**
 * The API's rate-limit budgets out of a load generator's reach: it is no normal client, and a
 * 429 answers faster than the request it refuses. Every request is still counted as always, so
 * the limiter's own cost stays in the measure.
 */
export const UNREACHED_BUDGETS: Record<string, string> = {
  API_RATE_LIMIT_PER_CALLER: '100000000',
  API_RATE_LIMIT_PER_TEAM: '100000000',
  API_RATE_LIMIT_PER_ADDRESS: '100000000',
};

/**
 * A rate with refused or failed requests in it is no measure: the bench says so and ends
 * with a failure (after printing its table, to show which request failed).
 */
export function refuseErrors(errors: number): void {
  if (errors === 0) return;
  console.error(`FAILED: ${errors} requests did not succeed; the rates above are not valid`);
  process.exitCode = 1;
}

/** Environment of a server process under test: production logging, the bench database. */
export function serverEnv(dbUrl: string): Record<string, string> {
  return {
    DATABASE_URL: dbUrl,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: '10',
    CREDENTIALS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
}

/**
 * The built API (`dist/`) as an API node: background work (refresh, job workers, event
 * delivery) runs on worker nodes in such a deployment. Resolves once /health/ready answers.
 */
export async function startApi(
  dbUrl: string,
  port: number,
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = spawn('node', [...nodeArgs, ...apiStartArgs()], {
    env: {
      ...process.env,
      ...serverEnv(dbUrl),
      TRACKING_REFRESH_ENABLED: 'false',
      JOB_WORKERS_ENABLED: 'false',
      EVENT_DELIVERY_ENABLED: 'false',
      ...UNREACHED_BUDGETS,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 120; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
      if (res.ok) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill('SIGTERM');
  throw new Error('API did not become ready');
}

/** A server script run with ts-node; resolves with the port it prints (`listening <port>`). */
export function startScript(
  script: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', ['-r', 'ts-node/register/transpile-only', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
  });
}

/** The 1-minute load average and the CPU count, for the recorded runs. */
export function machineLoad(): string {
  return `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs`;
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time (ms) used so far by every PostgreSQL process of this machine (server and
 * backends, whatever database they serve: read it on a quiet machine). A backend that exits
 * takes its time with it; the servers under test keep their pool connections open.
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      total += cpuMs(Number(entry));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}
