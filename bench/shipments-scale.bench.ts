/**
 * How the cost of a list page grows with the workspace: the first page of the common shipment
 * lists in a 1 000 000-shipment workspace against the same in a 1 000-shipment workspace, on
 * one API process, in interleaved rounds (large, small, small, large, ...) so that the machine's load
 * weighs on both sides. Reports requests/s, p99 and the ratio large / small per list, and
 * checks on each side that hydra:totalItems equals count(*) and hydra:last is the last page.
 *
 *   npm run build && node -r ts-node/register/transpile-only bench/shipments-scale.bench.ts \
 *     [--large 1000000] [--small 1000] [--seconds 5] [--rounds 3] [--connections 8]
 *
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/bench_scale (created, migrated
 * and seeded once; the seeds are remembered in `bench_seed`). Exits 1 when a check fails.
 */
import { parseArgs } from 'node:util';
import { createDataSource } from '../src/database/data-source';
import { runMigrationsLocked } from '../src/database/migration-runner';
import { lastPage } from '../src/hydra/query/pagination';
import {
  SeededWorkspace,
  ensureDatabase,
  machineLoad,
  refuseErrors,
  seededWorkspace,
  startApi,
} from './lib/bench-setup';
import { median, runLoad } from './lib/load-generator';

const { values } = parseArgs({
  options: {
    large: { type: 'string', default: '1000000' },
    small: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    only: { type: 'string' },
  },
});
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_scale';

interface Scenario {
  name: string;
  /** The URL for one workspace (look-ups take a value of that workspace). */
  url: (ws: SeededWorkspace & { orderNumber: string; email: string }) => string;
  /** count(*) of the same rows, to check hydra:totalItems. */
  count: (ws: SeededWorkspace & { orderNumber: string; email: string }) => [string, unknown[]];
}

const where = 'SELECT count(*)::int AS n FROM shipment WHERE workspace_id = $1';
const SCENARIOS: Scenario[] = [
  { name: '/shipments', url: () => '/shipments', count: (w) => [where, [w.workspaceId]] },
  {
    name: '/shipments?trackingStatus=in_transit',
    url: () => '/shipments?trackingStatus=in_transit',
    count: (w) => [`${where} AND tracking_status = 'in_transit'`, [w.workspaceId]],
  },
  {
    name: '/shipments?originCarrier=ups&order[createdAt]=desc',
    url: () => '/shipments?originCarrier=ups&order%5BcreatedAt%5D=desc',
    count: (w) => [`${where} AND origin_carrier = 'ups'`, [w.workspaceId]],
  },
  {
    name: '/shipments?order[updatedAt]=desc',
    url: () => '/shipments?order%5BupdatedAt%5D=desc',
    count: (w) => [where, [w.workspaceId]],
  },
  {
    name: '/shipments?orderNumbers=<one order>',
    url: (w) => `/shipments?orderNumbers=${encodeURIComponent(w.orderNumber)}`,
    count: (w) => [`${where} AND order_numbers @> ARRAY[$2]`, [w.workspaceId, w.orderNumber]],
  },
  {
    name: '/shipments?email=<one customer>',
    url: (w) => `/shipments?email=${encodeURIComponent(w.email)}`,
    count: (w) => [`${where} AND email = $2`, [w.workspaceId, w.email]],
  },
];

async function main(): Promise<void> {
  await ensureDatabase(DB_URL);
  const db = await createDataSource(DB_URL).initialize();
  await runMigrationsLocked(db);
  const sides: Array<SeededWorkspace & { orderNumber: string; email: string }> = [];
  for (const rows of [Number(values.large), Number(values.small)]) {
    const seed = await seededWorkspace(db, rows);
    // A look-up value from the middle of the workspace.
    const [one] = await db.query(
      `SELECT order_numbers[1] AS "orderNumber", email FROM shipment
        WHERE workspace_id = $1 AND cardinality(order_numbers) > 0
        ORDER BY created_at LIMIT 1 OFFSET $2`,
      [seed.workspaceId, Math.floor(Math.min(rows / 10, 100000) / 2)],
    );
    sides.push({ ...seed, ...one });
  }
  await db.query('ANALYZE maintained_count');

  const port = 19000 + (process.pid % 1000);
  const api = await startApi(DB_URL, port);
  const base = `http://127.0.0.1:${port}`;
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const scenarios = SCENARIOS.filter((s) => !values.only || s.name.includes(values.only));
  const load = [machineLoad()];
  const table: string[] = [];
  let failed = false;
  let errors = 0;
  try {
    for (const scenario of scenarios) {
      const checks: string[] = [];
      for (const side of sides) {
        const headers = { Authorization: `Bearer ${side.token}`, Accept: 'application/ld+json' };
        const body = (await (await fetch(base + scenario.url(side), { headers })).json()) as {
          'hydra:totalItems': number;
          'hydra:view'?: { 'hydra:last'?: string };
        };
        const [sql, params] = scenario.count(side);
        const [{ n }] = await db.query(sql, params);
        const last = body['hydra:view']?.['hydra:last'];
        const expectedLast = lastPage(n, 30);
        const ok =
          body['hydra:totalItems'] === n &&
          (expectedLast === 1 ? last === undefined : last?.endsWith(`page=${expectedLast}`));
        if (!ok) failed = true;
        checks.push(ok ? `${n} ✓` : `${body['hydra:totalItems']} ≠ ${n} ✗`);
      }
      const runs: Array<Array<{ rps: number; p99: number; errors: number }>> = [[], []];
      for (const side of sides) {
        const headers = { Authorization: `Bearer ${side.token}`, Accept: 'application/ld+json' };
        await runLoad(base + scenario.url(side), headers, connections, 1); // warm-up
      }
      for (let round = 0; round < Number(values.rounds); round++) {
        // Large first in even rounds, small first in odd ones: a drift of the machine's load
        // does not favour one side.
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) {
          const side = sides[i];
          const headers = { Authorization: `Bearer ${side.token}`, Accept: 'application/ld+json' };
          runs[i].push(await runLoad(base + scenario.url(side), headers, connections, seconds));
        }
      }
      const [large, small] = runs.map((r) => ({
        rps: median(r.map((x) => x.rps)),
        p99: median(r.map((x) => x.p99)),
        errors: r.reduce((n, x) => n + x.errors, 0),
      }));
      errors += large.errors + small.errors;
      table.push(
        `| \`${scenario.name}\` | ${large.rps.toFixed(0)} | ${small.rps.toFixed(0)} | **${(large.rps / small.rps).toFixed(2)}** | ${large.p99.toFixed(1)} | ${small.p99.toFixed(1)} | ${checks.join(' / ')} | ${large.errors + small.errors} |`,
      );
      console.error(table[table.length - 1]);
      load.push(machineLoad());
    }
  } finally {
    api.kill('SIGTERM');
    await db.destroy();
  }
  console.log(
    `\n${values.large} vs ${values.small} shipments, ${connections} connections, ${values.rounds} interleaved rounds of ${seconds} s, medians; ${load.join(', ')}\n`,
  );
  console.log(
    '| first page of | large req/s | small req/s | ratio | large p99 ms | small p99 ms | totalItems = count(*) (large / small) | non-200 |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of table) console.log(row);
  refuseErrors(errors);
  if (failed) process.exitCode = 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
