/**
 * What the API conventions (README "API conventions", issue 27) cost per request: the build of
 * the commit before them (`--before`, a checkout with its own `dist/`) against this build, in
 * alternating runs on the same database, for an item (`GET /shipments/{id}`), the single-row
 * look-up (`?trackingNumber=`) and a list page; then this build's answers compressed (gzip,
 * brotli) against plain. Reports requests/s, p99 and the API process's CPU per request.
 *
 *   npm run build   # here, and in the --before checkout
 *   node -r ts-node/register/transpile-only bench/conventions.bench.ts --before /tmp/conv-before \
 *     [--rows 20000] [--seconds 4] [--rounds 3] [--connections 8] \
 *     [--only item,lookup,list] [--no-coded] [--cpu-prof DIR]
 *
 * `--only` keeps some of the three requests, `--no-coded` skips the compressed runs,
 * `--cpu-prof DIR` starts both servers under `node --cpu-prof` (profiles in DIR/before and
 * DIR/after, written when they stop).
 *
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/bench_conventions (created,
 * migrated with this checkout's migrations, seeded once).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createDataSource } from '../src/database/data-source';
import { runMigrationsLocked } from '../src/database/migration-runner';
import {
  cpuMs,
  ensureDatabase,
  machineLoad,
  seededWorkspace,
  serverEnv,
  UNREACHED_BUDGETS,
} from './lib/bench-setup';
import { median, runLoad } from './lib/load-generator';

const { values } = parseArgs({
  options: {
    before: { type: 'string', default: '/tmp/conv-before' },
    rows: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    only: { type: 'string', default: 'item,lookup,list' },
    'no-coded': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
});
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_conventions';

async function startBuild(dir: string, port: number, name: string): Promise<ChildProcess> {
  const profile = values['cpu-prof']
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(values['cpu-prof'], name)}`]
    : [];
  const child = spawn(
    'node',
    [...profile, '--max-semi-space-size=64', join(dir, 'dist/src/main.js')],
    {
      cwd: dir,
      env: {
        ...process.env,
        ...serverEnv(DB_URL),
        MIGRATE_ON_START: 'false',
        TRACKING_REFRESH_ENABLED: 'false',
        JOB_WORKERS_ENABLED: 'false',
        EVENT_DELIVERY_ENABLED: 'false',
        ...UNREACHED_BUDGETS,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health/ready`)).ok) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill('SIGTERM');
  throw new Error(`${dir} did not become ready`);
}

interface Measured {
  rps: number;
  p99: number;
  cpuUs: number;
  errors: number;
}

async function measure(
  server: ChildProcess,
  url: string,
  headers: Record<string, string>,
): Promise<Measured> {
  const cpu0 = cpuMs(server.pid!);
  const run = await runLoad(url, headers, Number(values.connections), Number(values.seconds));
  const cpu = cpuMs(server.pid!) - cpu0;
  const requests = run.rps * Number(values.seconds);
  return { rps: run.rps, p99: run.p99, cpuUs: (cpu * 1000) / requests, errors: run.errors };
}

function summary(runs: Measured[]): Measured {
  return {
    rps: median(runs.map((r) => r.rps)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: median(runs.map((r) => r.cpuUs)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

async function main(): Promise<void> {
  await ensureDatabase(DB_URL);
  const db = createDataSource(DB_URL);
  await db.initialize();
  await runMigrationsLocked(db);
  const seed = await seededWorkspace(db, Number(values.rows));
  const [one] = await db.query(
    `SELECT id, tracking_number FROM shipment WHERE workspace_id = $1 ORDER BY created_at LIMIT 1 OFFSET 777`,
    [seed.workspaceId],
  );
  await db.destroy();

  const before = await startBuild(resolve(values.before!), 18600, 'before');
  const after = await startBuild(process.cwd(), 18601, 'after');
  const servers = [
    { name: 'before', child: before, port: 18600 },
    { name: 'after', child: after, port: 18601 },
  ];
  const auth = { Authorization: `Bearer ${seed.token}`, Accept: 'application/ld+json' };
  const named: Record<string, string> = {
    item: `/shipments/${one.id}`,
    lookup: `/shipments?trackingNumber=${one.tracking_number}`,
    list: '/shipments',
  };
  const scenarios = values.only!.split(',').map((name) => named[name.trim()]);
  if (scenarios.some((path) => !path)) throw new Error(`--only takes item, lookup, list`);
  console.error(`start: ${machineLoad()}`);
  const lines: string[] = [];
  for (const path of scenarios) {
    const runs: Record<string, Measured[]> = { before: [], after: [] };
    for (const s of servers) await runLoad(`http://127.0.0.1:${s.port}${path}`, auth, 8, 1);
    for (let i = 0; i < Number(values.rounds); i++)
      for (const s of i % 2 ? [...servers].reverse() : servers)
        runs[s.name].push(await measure(s.child, `http://127.0.0.1:${s.port}${path}`, auth));
    const b = summary(runs.before);
    const a = summary(runs.after);
    lines.push(
      `| \`${decodeURIComponent(path).replace(one.id, '{id}')}\` | ${b.rps.toFixed(0)} / ${a.rps.toFixed(0)} | **${(a.rps / b.rps).toFixed(2)}** | ${b.p99.toFixed(1)} / ${a.p99.toFixed(1)} | ${b.cpuUs.toFixed(0)} / ${a.cpuUs.toFixed(0)} | ${b.errors + a.errors} |`,
    );
    console.error(lines[lines.length - 1]);
  }
  const coded: string[] = [];
  for (const path of values['no-coded'] ? [] : scenarios) {
    const url = `http://127.0.0.1:18601${path}`;
    const runs: Record<string, Measured[]> = { identity: [], gzip: [], br: [] };
    for (let i = 0; i < Number(values.rounds); i++)
      for (const encoding of ['identity', 'gzip', 'br'])
        runs[encoding].push(await measure(after, url, { ...auth, 'Accept-Encoding': encoding }));
    const bytes: Record<string, number> = {};
    for (const encoding of ['identity', 'gzip', 'br'])
      bytes[encoding] = (await fetchRaw(url, { ...auth, 'Accept-Encoding': encoding })).length;
    const [p, g, br] = ['identity', 'gzip', 'br'].map((e) => summary(runs[e]));
    coded.push(
      `| \`${decodeURIComponent(path).replace(one.id, '{id}')}\` | ${bytes.identity} / ${bytes.gzip} / ${bytes.br} | ${p.rps.toFixed(0)} / ${g.rps.toFixed(0)} / ${br.rps.toFixed(0)} | ${p.cpuUs.toFixed(0)} / ${g.cpuUs.toFixed(0)} / ${br.cpuUs.toFixed(0)} | ${p.errors + g.errors + br.errors} |`,
    );
    console.error(coded[coded.length - 1]);
  }
  console.error(`end: ${machineLoad()}`);
  console.log(
    `\n${seed.rows} shipments, ${values.connections} connections, ${values.rounds} alternating rounds of ${values.seconds}s, medians; before / after:\n`,
  );
  console.log('| request | req/s | ratio | p99 ms | CPU µs per request | errors |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const l of lines) console.log(l);
  console.log('\nThis build, Accept-Encoding identity / gzip / br:\n');
  console.log('| request | bytes | req/s | CPU µs per request | errors |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const l of coded) console.log(l);
  // Waited for: a profiled server writes its profile on the way out.
  await Promise.all([before, after].map(stop));
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** The answer's bytes as sent (fetch would decode them). */
async function fetchRaw(url: string, headers: Record<string, string>): Promise<Buffer> {
  const { get } = await import('node:http');
  return new Promise((done, fail) =>
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(Buffer.concat(chunks)));
    }).on('error', fail),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
