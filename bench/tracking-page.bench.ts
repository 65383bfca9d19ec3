/**
 * The public shipment page: requests/s of the HTML page (`/t/{hash}`: Eta templates, seven
 * queries, Intl dates) against the JSON of the same link (`/public/tracking_page_links/{hash}`),
 * served by the built API (`dist/`, production logging), in alternating runs.
 *
 *   npm run build && node -r ts-node/register/transpile-only bench/tracking-page.bench.ts \
 *     [--seconds 5] [--rounds 3] [--connections 8]
 *
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/bench_tracking_page (created
 * and migrated when missing). Each run adds one shop: a page, an order of four parcels
 * (sandbox numbers, tracked on creation) with their items.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { createDataSource } from '../src/database/data-source';
import { runMigrationsLocked } from '../src/database/migration-runner';
import { apiStartArgs, refuseErrors, UNREACHED_BUDGETS } from './lib/bench-setup';
import { median, runLoad, type LoadResult } from './lib/load-generator';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
  },
});
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_tracking_page';

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

/** A user owning a workspace, and a bearer token (as test/factories/tenant.factory.ts does). */
async function tenant(): Promise<{ token: string; workspaceId: string }> {
  await ensureDatabase();
  const db = createDataSource(DB_URL);
  await db.initialize();
  await runMigrationsLocked(db);
  const token = randomBytes(32).toString('hex');
  const [{ workspace_id: workspaceId }] = await db.query(
    `WITH u AS (INSERT INTO "user" (email, email_verified) VALUES ($1, true) RETURNING id),
          t AS (INSERT INTO team (name) VALUES ('Bench') RETURNING id),
          m AS (INSERT INTO team_member (team_id, member_id, role)
                SELECT t.id, u.id, 'owner' FROM t, u RETURNING team_id),
          w AS (INSERT INTO workspace (team_id, title) SELECT team_id, 'Bench Outdoor' FROM m
                RETURNING id),
          a AS (INSERT INTO access_token (token_hash, user_id, expires_at)
                SELECT encode(sha256($2::bytea), 'hex'), u.id, now() + interval '1 day' FROM u)
     SELECT w.id AS workspace_id FROM w`,
    [`bench-${randomBytes(6).toString('hex')}@example.test`, token],
  );
  await db.destroy();
  return { token, workspaceId };
}

async function call(base: string, token: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json',
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A page and an order shipped in four parcels; the link of the first one. */
async function shop(base: string, token: string, workspaceId: string): Promise<string> {
  const workspace = `/workspaces/${workspaceId}`;
  const unique = randomBytes(4).toString('hex').toUpperCase();
  const page = await call(base, token, '/tracking_pages', {
    workspace,
    subdomain: `bench-${unique.toLowerCase()}`,
    title: 'Bench Outdoor',
    builder: {
      header: { backgroundColor: '#0b3d2e' },
      trackButton: { backgroundColor: '#0b6e4f' },
    },
  });
  const order = await call(base, token, '/orders', {
    workspace,
    orderNumber: `B-${unique}`,
    orderType: 'customer',
    email: 'buyer@example.test',
  });
  let first: string | null = null;
  for (const [i, prefix] of ['200', '102', '410', '202'].entries()) {
    const item = await call(base, token, '/order_items', {
      order: `/orders/${order.id}`,
      productName: `Item ${i}`,
      qty: 1,
      price: '10',
    });
    const si = await call(base, token, '/shipment_items', {
      shipment: { workspace, trackingNumber: `TM${prefix}BENCH${unique}${i}TM` },
      orderItem: `/order_items/${item.id}`,
      qty: 1,
    });
    const link = await call(base, token, '/generate_tracking_page_link', {
      trackingPageId: page.id,
      filter: { id: String(si.shipment).split('/').pop() },
    });
    first ??= String(link.link).split('/').pop()!;
  }
  return first!;
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

async function main(): Promise<void> {
  const { token, workspaceId } = await tenant();
  const port = 18000 + (process.pid % 1000);
  const base = `http://127.0.0.1:${port}`;
  const app = spawn('node', apiStartArgs(), {
    env: {
      ...process.env,
      DATABASE_URL: DB_URL,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      CREDENTIALS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      TRACKING_REFRESH_ENABLED: 'false',
      JOB_WORKERS_ENABLED: 'false',
      EVENT_DELIVERY_ENABLED: 'false',
      ...UNREACHED_BUDGETS,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitReady(port);
    const hash = await shop(base, token, workspaceId);
    const scenarios: Array<[string, string, Record<string, string>]> = [
      ['HTML page', `/t/${hash}`, { Accept: 'text/html', 'Accept-Language': 'de' }],
      ['JSON view', `/public/tracking_page_links/${hash}`, { Accept: 'application/ld+json' }],
    ];
    const connections = Number(values.connections);
    const seconds = Number(values.seconds);
    const runs = new Map(scenarios.map(([name]) => [name, [] as LoadResult[]]));
    for (const [, path, headers] of scenarios)
      await runLoad(`${base}${path}`, headers, connections, 1);
    for (let round = 0; round < Number(values.rounds); round++)
      for (const [name, path, headers] of scenarios)
        runs.get(name)!.push(await runLoad(`${base}${path}`, headers, connections, seconds));
    const sizes = await Promise.all(
      scenarios.map(
        async ([, path, headers]) =>
          (await (await fetch(`${base}${path}`, { headers })).text()).length,
      ),
    );
    console.log(
      `\n${connections} connections, ${values.rounds} alternating rounds of ${seconds}s, medians:\n`,
    );
    console.log('| response | req/s | p50 ms | p99 ms | bytes | non-200 |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    const rps: number[] = [];
    for (const [i, [name]] of scenarios.entries()) {
      const r = runs.get(name)!;
      rps.push(median(r.map((x) => x.rps)));
      console.log(
        `| ${name} | ${rps[i].toFixed(0)} | ${median(r.map((x) => x.p50)).toFixed(1)} | ${median(r.map((x) => x.p99)).toFixed(1)} | ${sizes[i]} | ${r.reduce((n, x) => n + x.errors, 0)} |`,
      );
    }
    console.log(`\nHTML / JSON: **${(rps[0] / rps[1]).toFixed(2)}**`);
    refuseErrors([...runs.values()].flat().reduce((n, x) => n + x.errors, 0));
  } finally {
    app.kill('SIGTERM');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
