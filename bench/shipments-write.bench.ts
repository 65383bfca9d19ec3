/**
 * The per-request cost of the API on single rows, against a bare node:http + pg server
 * (bench/servers/bare-write-server.ts), in alternating rounds (API, bare, API, ...):
 * - `GET /shipments/{id}`: the same statements in both (token look-up, the planned item SELECT,
 *   which has PostgreSQL render the record's JSON: the bare server answers that text);
 * - `POST /shipments` with a sandbox tracking number: the bare server writes the same rows
 *   (shipment with its tracking fields, six checkpoints, two outbox events) the shortest way.
 * Before each POST round the previous round's shipments are deleted and the maintained counts
 * folded and vacuumed (as their sweep does every minute), so every round starts on the same
 * tables.
 *
 *   npm run build && node -r ts-node/register/transpile-only bench/shipments-write.bench.ts \
 *     [--seconds 5] [--rounds 3] [--connections 8] [--only get|post] [--cpu-prof]
 *
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/bench_scale (a 1 000-shipment
 * workspace is seeded once; its team gets a subscription so plan limits do not refuse; the API
 * runs with billing configured, so that creates check them).
 * `--cpu-prof` writes the API process's CPU profile to bench/.profiles/.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { PrincipalLoader } from '../src/access/principal-loader';
import { AppModule } from '../src/app.module';
import { createDataSource } from '../src/database/data-source';
import { runMigrationsLocked } from '../src/database/migration-runner';
import { DataProvider } from '../src/hydra/collection/data-provider';
import { COMPACT_AFTER_DELTAS } from '../src/hydra/collection/maintained-counts';
import { SWEEP_COUNTS_SQL, VACUUM_COUNTS_SQL } from '../src/hydra/collection/maintained-counts.sql';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { Shipment } from '../src/shipments/shipment.entity';
import {
  cpuMs,
  postgresCpuMs,
  ensureDatabase,
  machineLoad,
  refuseErrors,
  seededWorkspace,
  serverEnv,
  startApi,
  startScript,
} from './lib/bench-setup';
import { LoadResult, median, runLoad } from './lib/load-generator';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    only: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_scale';
const POSTED = 'TM102BENCHP';

/** The item statement exactly as the API plans it for this user. */
async function itemPlan(userId: string, id: string) {
  process.env.DATABASE_URL = DB_URL;
  process.env.LOG_LEVEL = 'warn';
  const ctx = await NestFactory.createApplicationContext(AppModule, { logger: false });
  try {
    const resource = ctx.get(ResourceRegistry).get(Shipment);
    const principal = await ctx.get(PrincipalLoader).forUser(userId);
    // The statement the API runs for a JSON-LD item: its JSON text rendered by PostgreSQL.
    const data = ctx.get(DataProvider);
    return {
      url: `/shipments/${id}`,
      ...(data.planItemJson(resource, principal, id) ?? data.planItem(resource, principal, id))!,
    };
  } finally {
    await ctx.close();
  }
}

async function main(): Promise<void> {
  await ensureDatabase(DB_URL);
  const db = await createDataSource(DB_URL).initialize();
  await runMigrationsLocked(db);
  const seed = await seededWorkspace(db, 1000);
  await db.query(
    `INSERT INTO subscription (team_id, provider, plan_id, plan_name, plan_type, status, entitlements)
     SELECT team_id, 'billing_provider', 'bench', 'Bench', 'paid', 'active',
            '{"shipments": 100000000, "workspaces": 100, "users": 100}'
       FROM workspace WHERE id = $1
     ON CONFLICT (team_id) DO NOTHING`,
    [seed.workspaceId],
  );
  const [{ id }] = await db.query(
    'SELECT id FROM shipment WHERE workspace_id = $1 ORDER BY created_at LIMIT 1 OFFSET 500',
    [seed.workspaceId],
  );
  const planFile = join(tmpdir(), `bench-item-${process.pid}.json`);
  writeFileSync(planFile, JSON.stringify(await itemPlan(seed.userId, id)));

  const port = 20000 + (process.pid % 1000);
  const profileArgs = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir=bench/.profiles'] : [];
  // Billing configured (the provider is never called here): creates check the plan's monthly
  // volume, as they do where plans apply; without billing every team is unlimited, unchecked.
  const api = await startApi(DB_URL, port, profileArgs, {
    BILLING_PROVIDER_URL: 'http://127.0.0.1:9',
  });
  const bare = await startScript('bench/servers/bare-write-server.ts', {
    ...serverEnv(DB_URL),
    ITEM_PLAN_FILE: planFile,
  });
  const headers = { Authorization: `Bearer ${seed.token}`, Accept: 'application/ld+json' };
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  let sequence = 0;
  const post = {
    body: () =>
      JSON.stringify({
        workspace: `/workspaces/${seed.workspaceId}`,
        trackingNumber: `${POSTED}${process.pid}N${++sequence}TM`,
        email: `buyer${sequence}@example.test`,
      }),
  };
  const clean = async () => {
    // The events by their aggregates' ids, through the aggregate index: a join let the planner
    // AND the workspace's whole index into every shipment's look-up, or scan the outbox.
    await db.query(
      `DELETE FROM outbox_event WHERE aggregate_id = ANY(ARRAY(
         SELECT id FROM shipment WHERE workspace_id = $1 AND tracking_number LIKE $2))`,
      [seed.workspaceId, `${POSTED}%`],
    );
    await db.query(`DELETE FROM shipment WHERE workspace_id = $1 AND tracking_number LIKE $2`, [
      seed.workspaceId,
      `${POSTED}%`,
    ]);
    // As the maintained counts' sweep does every minute on worker nodes (not run here): every
    // round starts without the dead delta rows of the previous rounds.
    await db.query(SWEEP_COUNTS_SQL, [COMPACT_AFTER_DELTAS, 10_000]);
    await db.query(VACUUM_COUNTS_SQL);
  };
  const scenarios = [
    { name: `GET /shipments/{id}`, path: `/shipments/${id}`, post: undefined },
    { name: 'POST /shipments', path: '/shipments', post },
  ].filter((s) => !values.only || s.name.toLowerCase().startsWith(values.only));
  const rows: string[] = [];
  let errors = 0;
  const load = [machineLoad()];
  try {
    for (const scenario of scenarios) {
      const runs: Record<'api' | 'bare', Array<LoadResult & { cpuMs: number; pgMs: number }>> = {
        api: [],
        bare: [],
      };
      const one = async (side: 'api' | 'bare', time: number) => {
        if (scenario.post) await clean();
        const target = side === 'api' ? port : bare.port;
        const pid = side === 'api' ? api.pid! : bare.child.pid!;
        const before = cpuMs(pid);
        const pgBefore = postgresCpuMs();
        const result = await runLoad(
          `http://127.0.0.1:${target}${scenario.path}`,
          headers,
          connections,
          time,
          scenario.post,
        );
        return {
          ...result,
          cpuMs: (cpuMs(pid) - before) / result.requests,
          pgMs: (postgresCpuMs() - pgBefore) / result.requests,
        };
      };
      await one('api', 1); // warm-up
      await one('bare', 1);
      for (let round = 0; round < Number(values.rounds); round++) {
        // API first in even rounds, bare first in odd ones (a drift of the load favours neither).
        for (const side of round % 2 === 0
          ? (['api', 'bare'] as const)
          : (['bare', 'api'] as const))
          runs[side].push(await one(side, seconds));
      }
      const [a, b] = [runs.api, runs.bare].map((r) => ({
        rps: median(r.map((x) => x.rps)),
        p99: median(r.map((x) => x.p99)),
        cpu: median(r.map((x) => x.cpuMs)),
        pg: median(r.map((x) => x.pgMs)),
        errors: r.reduce((n, x) => n + x.errors, 0),
      }));
      errors += a.errors + b.errors;
      rows.push(
        `| \`${scenario.name}\` | ${a.rps.toFixed(0)} | ${b.rps.toFixed(0)} | **${(a.rps / b.rps).toFixed(2)}** | ${a.p99.toFixed(1)} | ${b.p99.toFixed(1)} | ${(a.cpu * 1000).toFixed(0)} | ${(b.cpu * 1000).toFixed(0)} | ${(a.pg * 1000).toFixed(0)} | ${(b.pg * 1000).toFixed(0)} | ${a.errors + b.errors} |`,
      );
      console.error(rows[rows.length - 1]);
      load.push(machineLoad());
    }
    await clean();
  } finally {
    api.kill('SIGTERM');
    bare.child.kill('SIGTERM');
    await db.destroy();
  }
  console.log(
    `\n${connections} connections, ${values.rounds} alternating rounds of ${seconds} s, medians; ${load.join(', ')}\n`,
  );
  console.log(
    '| request | API req/s | bare req/s | ratio | API p99 ms | bare p99 ms | API CPU µs/req | bare CPU µs/req | PostgreSQL CPU µs/req (API) | (bare) | errors |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
  refuseErrors(errors);
}

main().then(
  // Children were told to stop; keep-alive sockets must not keep this process waiting.
  () => setTimeout(() => process.exit(process.exitCode ?? 0), 500),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
