/**
 * Delivery predictions (issue 26), three measurements:
 *  1. µs per status change of `updateShipmentPrediction` (window, attention, contribution) with
 *     the stats of a learnt history in memory, one core;
 *  2. background refresh throughput with predictions on against off: the same N due sandbox
 *     shipments refreshed through TrackingRefresher, once with the PredictionWriter hook and once
 *     without it (goal: on / off >= 0.9), as a first refresh (every parcel brings its whole
 *     journey), as a later one (`later`: nothing new), and as the scheduler's mix of both
 *     (`mixed`: the share of refreshes that bring a checkpoint in the seeded history, each
 *     parcel refreshed as `nextCheckAt` schedules it);
 *  3. carrier analytics (CarrierPerformanceStore.read, a 90-day range) of a big workspace
 *     against a small one, both loaded with the seeder's history (goal: small / big time
 *     ratio >= 0.8, i.e. the big one at most 25 % slower).
 *
 *   node -r ts-node/register/transpile-only bench/predictions.bench.ts \
 *     [--changes 20000] [--refresh 3000] [--loops 2] [--big 50000] [--small 1000] [--reads 30] [--rounds 2]
 *     [--parts change,refresh,later,mixed,analytics] [--modes off,on]
 *
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/bench_predictions (created and
 * migrated when missing; every run starts from new teams). Exits 1 when a goal is missed.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { addToStats, contributionOf } from '../src/predictions/contribution';
import {
  DEMO_LANES,
  generateHistory,
  historyRows,
} from '../src/predictions/history/history-generator';
import { MemoryStats } from '../src/predictions/model/stats';
import { journeyOf } from '../src/predictions/model/stages';
import { predictionTools } from '../src/predictions/prediction-tools';
import { updateShipmentPrediction } from '../src/predictions/shipment-prediction';
import { loadHistory } from '../src/seed/bulk-seeder';
import { nextCheckAt } from '../src/tracking/engine/next-check';
import { SANDBOX_PREFIX_STATUSES } from '../src/tracking/providers/sandbox';
import { isFinal, type TrackingStatusCode } from '../src/tracking/statuses';
import { databaseCpuUs, prepareServiceProcess, rerunAsStarted } from './lib/bench-setup';

const { values } = parseArgs({
  options: {
    changes: { type: 'string', default: '20000' },
    refresh: { type: 'string', default: '3000' },
    loops: { type: 'string', default: '2' },
    big: { type: 'string', default: '50000' },
    small: { type: 'string', default: '1000' },
    reads: { type: 'string', default: '30' },
    rounds: { type: 'string', default: '2' },
    // Which measurements to run (a profile of one of them: `node --cpu-prof ... --parts refresh`).
    parts: { type: 'string', default: 'change,refresh,later,mixed,analytics' },
    // The refresh's modes (`on` alone: a profile of the hook without the rounds it is off).
    modes: { type: 'string', default: 'off,on' },
  },
});
const parts = new Set(values.parts.split(','));
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_predictions';
const DAY = 86_400_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** 1. The pure decision of one status change, with a learnt team's stats in memory. */
function costPerStatusChange(changes: number): { us: number; changes: number } {
  const now = Date.parse('2025-07-01T00:00:00Z');
  const history = generateHistory({
    seed: 5,
    shipments: 6000,
    from: new Date(now - 180 * DAY),
    to: new Date(now - 14 * DAY),
    lanes: DEMO_LANES,
  });
  const stats = new MemoryStats();
  const ordered = history
    .map((p) => ({ p, at: journeyOf(p).deliveredAt ?? Infinity }))
    .sort((a, b) => a.at - b.at);
  for (const { p } of ordered)
    addToStats(
      stats,
      contributionOf(p, { promises: { carrierDate: null, windowLatest: null }, stats }),
    );
  const open = generateHistory({
    seed: 6,
    shipments: 2000,
    from: new Date(now - 10 * DAY),
    to: new Date(now),
    now: new Date(now),
    lanes: DEMO_LANES,
  });
  const rounds: number[] = [];
  for (let round = 0; round < 7; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < changes; i++) {
      const facts = open[i % open.length];
      updateShipmentPrediction({
        facts,
        before: { contribution: null, promises: null, announced: null, attention: [] },
        stats,
        settings: { waitingDays: 3 },
        now: new Date(now),
      });
    }
    rounds.push(Number(process.hrtime.bigint() - started) / 1000 / changes);
  }
  return { us: Number(median(rounds.slice(2)).toFixed(1)), changes };
}

/**
 * Of the refreshes the scheduler makes, the share that brings a checkpoint (the hook decides
 * again only then; the others keep the stored decision). Replays the seeded history
 * (DEMO_LANES, 2 000 parcels, every journey complete): a parcel is tracked at its creation,
 * then whenever `nextCheckAt` schedules it from what it has seen (status, time of the last
 * change, checks that brought nothing), until a final status or 90 days; a refresh sees the
 * checkpoints dated up to its time (the carrier's own delay in showing them is left out,
 * which puts more news in each refresh).
 */
function changingShare(): { refreshes: number; changing: number; share: number } {
  const now = Date.parse('2025-07-01T00:00:00Z');
  const parcels = generateHistory({
    seed: 26,
    shipments: 2000,
    from: new Date(now - 90 * DAY),
    to: new Date(now),
    lanes: DEMO_LANES,
  });
  let refreshes = 0;
  let changing = 0;
  for (const p of parcels) {
    const byTime = [...p.checkpoints].sort((a, b) => a.at.getTime() - b.at.getTime());
    const end = p.createdAt.getTime() + 90 * DAY;
    let seen = 0;
    let status: TrackingStatusCode = 'no_info';
    let lastChange: Date | null = null;
    let idle = 0;
    for (let t = p.createdAt.getTime(); t < end;) {
      let upTo = seen;
      while (upTo < byTime.length && byTime[upTo].at.getTime() <= t) upTo++;
      refreshes++;
      if (upTo > seen) {
        changing++;
        seen = upTo;
        status = byTime[seen - 1].status;
        lastChange = byTime[seen - 1].at;
        idle = 0;
      } else idle++;
      if (isFinal(status)) break;
      t = nextCheckAt(status, lastChange, new Date(t), idle)!.getTime();
    }
  }
  return { refreshes, changing, share: changing / refreshes };
}

async function seedRefresh(db: DataSource, workspaceId: string, n: number): Promise<void> {
  await db.query(`DELETE FROM shipment WHERE workspace_id = $1`, [workspaceId]);
  // The outbox's dispatch of the previous round's events would fall into this round's time.
  await db.query(`DELETE FROM outbox_event WHERE workspace_id = $1`, [workspaceId]);
  await db.query(
    `INSERT INTO shipment (workspace_id, tracking_number, origin_carrier, created_at, next_check_at)
     SELECT $1, 'TM' || ($2::text[])[1 + g % cardinality($2::text[])] || 'P' || g || 'TM',
            'tm-test', now() - interval '1 day', now() - interval '1 minute'
       FROM generate_series(1, $3) AS g`,
    [workspaceId, Object.keys(SANDBOX_PREFIX_STATUSES), n],
  );
  await vacuumWritten(db);
}

/**
 * VACUUM ANALYZE of what a round writes. Each round deletes the previous one's shipments, with
 * their checkpoints, contributions and events: about 20 000 dead rows a round, which nothing
 * else reclaims where autovacuum is off (as on the bench servers). Left there, they slowed the
 * checkpoints' upsert and read of later rounds, predictions off and on alike.
 */
async function vacuumWritten(db: DataSource): Promise<void> {
  await db.query(
    `VACUUM ANALYZE shipment, tracking_checkpoint, outbox_event, prediction_contribution,
                    delivery_stat, carrier_performance_stat`,
  );
}

async function newWorkspace(db: DataSource, name: string): Promise<{ team: string; ws: string }> {
  const [team] = await db.query(`INSERT INTO team (name) VALUES ($1) RETURNING id`, [name]);
  const [ws] = await db.query(
    `INSERT INTO workspace (team_id, title) VALUES ($1, $2) RETURNING id`,
    [team.id, name],
  );
  return { team: team.id, ws: ws.id };
}

async function loadSeededHistory(db: DataSource, n: number, seed: number) {
  const { team, ws } = await newWorkspace(db, `bench-analytics-${n}`);
  const now = Date.now();
  const chunk = 20_000;
  // Another run's parcels stay in the database: a seed of its own keeps the ids apart.
  seed += now % 1_000_000;
  for (let i = 0; i < n; i += chunk) {
    const parcels = generateHistory({
      seed: seed + i,
      shipments: Math.min(chunk, n - i),
      from: new Date(now - 180 * DAY),
      to: new Date(now),
      now: new Date(now),
      lanes: DEMO_LANES,
    }).map((p, k) => ({ ...p, trackingNumber: `${p.trackingNumber}-${i + k}` }));
    await loadHistory(db, historyRows(parcels, ws));
  }
  const started = Date.now();
  await predictionTools(db).rebuild(team);
  console.error(
    `  ${n} shipments loaded, aggregates rebuilt in ${(Date.now() - started) / 1000} s`,
  );
  return ws;
}

async function main(): Promise<void> {
  if (rerunAsStarted()) return;
  const changes = parts.has('change')
    ? costPerStatusChange(Number(values.changes))
    : { us: NaN, changes: 0 };
  if (parts.has('change')) console.error(`1. ${changes.us} µs per status change`);

  await prepareServiceProcess(DB_URL, { DATABASE_POOL_SIZE: '10' });
  const { AppModule } = await import('../src/app.module');
  const { TrackingRefresher } = await import('../src/tracking/refresh/tracking-refresher');
  const { TrackingApplyExtensions } =
    await import('../src/tracking/tracking-service/tracking-apply-extensions');
  const { CarrierPerformanceStore } = await import('../src/predictions/carrier-performance-store');
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error', 'warn'] });
  let failed = false;
  try {
    const db = app.get(DataSource);
    // 2. Refresh with predictions off (the hook removed), then on, alternating, best of each.
    const refresher = app.get(TrackingRefresher);
    const extensions = app.get(TrackingApplyExtensions) as unknown as { list: readonly unknown[] };
    const hooks = extensions.list;
    const { ws: refreshWs } = await newWorkspace(db, 'bench-refresh');
    const n = Number(values.refresh);
    /**
     * Alternating rounds off / on of one kind of refresh, best rate of each: `first`, shipments
     * never tracked (every status changes, no contribution stored yet), or `later`, the same
     * shipments refreshed again once a first refresh with predictions stored their
     * contributions (the sandbox reports the same journey: nothing changes, as for most of a
     * parcel's refreshes).
     */
    const mix = parts.has('mixed') ? changingShare() : null;
    if (mix)
      console.error(
        `2. mixed: ${mix.changing} of ${mix.refreshes} scheduled refreshes bring a checkpoint ` +
          `(${(mix.share * 100).toFixed(1)} %)`,
      );
    const refreshRounds = async (kind: 'first' | 'later' | 'mixed') => {
      const rate: Record<'on' | 'off', number[]> = { on: [], off: [] };
      const cpuUs: Record<'on' | 'off', number[]> = { on: [], off: [] };
      const dbCpuUs: Record<'on' | 'off', number[]> = { on: [], off: [] };
      const drain = () =>
        Promise.all(
          Array.from({ length: Number(values.loops) }, async () => {
            while ((await refresher.runBatch(100)).claimed > 0);
          }),
        );
      const pair = (['off', 'on'] as const).filter((m) => values.modes.split(',').includes(m));
      const modes = Array.from({ length: Number(values.rounds) }, () => pair);
      for (const mode of modes.flat()) {
        await seedRefresh(db, refreshWs, n);
        if (kind !== 'first') {
          extensions.list = hooks;
          // `mixed`: the share that brings news stays untracked until the measured drain.
          const fresh = kind === 'mixed' ? Math.round(n * mix!.share) : 0;
          await db.query(
            `UPDATE shipment SET next_check_at = now() + interval '1 day'
              WHERE id IN (SELECT id FROM shipment WHERE workspace_id = $1 ORDER BY id LIMIT $2)`,
            [refreshWs, fresh],
          );
          await drain();
          await db.query(
            `UPDATE shipment SET next_check_at = now() - interval '1 minute' WHERE workspace_id = $1`,
            [refreshWs],
          );
          await vacuumWritten(db);
        }
        extensions.list = mode === 'on' ? hooks : [];
        const started = process.hrtime.bigint();
        const cpu = process.cpuUsage();
        const db0 = await databaseCpuUs(db);
        await drain();
        const s = Number(process.hrtime.bigint() - started) / 1e9;
        const used = process.cpuUsage(cpu);
        const dbUsed = (await databaseCpuUs(db)) - db0;
        rate[mode].push(n / s);
        // The service's own CPU per shipment: steadier than the rate on a shared VM.
        cpuUs[mode].push((used.user + used.system) / n);
        dbCpuUs[mode].push(dbUsed / n);
        console.error(
          `2. ${kind} refresh, predictions ${mode}: ${Math.round(n / s)} shipments/s, ` +
            `${Math.round(cpuUs[mode].at(-1)!)} µs service CPU per shipment, ` +
            `${Math.round(dbCpuUs[mode].at(-1)!)} µs database CPU`,
        );
      }
      extensions.list = hooks;
      const on = Math.max(...rate.on);
      const off = Math.max(...rate.off);
      return {
        shipments: n,
        loops: Number(values.loops),
        predictionsOn: Math.round(on),
        predictionsOff: Math.round(off),
        ratio: Number((on / off).toFixed(3)),
        goal: 0.9,
        serviceCpuUsPerShipment: {
          on: Math.round(median(cpuUs.on)),
          off: Math.round(median(cpuUs.off)),
        },
        databaseCpuUsPerShipment: {
          on: Math.round(median(dbCpuUs.on)),
          off: Math.round(median(dbCpuUs.off)),
        },
        // Off over on of the CPU per shipment (service + database, medians): what the rates'
        // ratio is when both cores are the limit, and steadier than best rates on a shared VM
        // (reported beside the goal, not instead of it).
        cpuRatio: Number(
          (
            (median(cpuUs.off) + median(dbCpuUs.off)) /
            (median(cpuUs.on) + median(dbCpuUs.on))
          ).toFixed(3),
        ),
      };
    };
    const skipped = { ratio: NaN };
    const refresh = parts.has('refresh') ? await refreshRounds('first') : skipped;
    const laterRefresh = parts.has('later') ? await refreshRounds('later') : skipped;
    const mixedRefresh = mix
      ? { changingShare: Number(mix.share.toFixed(3)), ...(await refreshRounds('mixed')) }
      : skipped;

    // 3. Carrier analytics of a big and a small workspace, same range, same statement.
    const analytics = async () => {
      const big = await loadSeededHistory(db, Number(values.big), 1000);
      const small = await loadSeededHistory(db, Number(values.small), 9000);
      const store = app.get(CarrierPerformanceStore);
      const to = new Date().toISOString().slice(0, 10);
      const from = new Date(Date.now() - 89 * DAY).toISOString().slice(0, 10);
      const time = async (ws: string) => {
        const ms: number[] = [];
        for (let i = 0; i < Number(values.reads); i++) {
          const started = process.hrtime.bigint();
          const { busy } = await store.read(ws, { from, to }, true);
          ms.push(Number(process.hrtime.bigint() - started) / 1e6);
          await store.compact(ws, busy);
        }
        return median(ms);
      };
      // As loaded (each key up to 32 delta rows: the rebuild applies pages of 1 000), then after
      // the attention sweeper's minute pass has folded every key (the steady state).
      await time(big);
      await time(small);
      const unfolded = { bigMs: await time(big), smallMs: await time(small) };
      await store.sweep(0);
      await time(big);
      const bigMs = await time(big);
      const smallMs = await time(small);
      return { bigMs, smallMs, unfolded };
    };
    const nan = { bigMs: NaN, smallMs: NaN };
    const { bigMs, smallMs, unfolded } = parts.has('analytics')
      ? await analytics()
      : { ...nan, unfolded: nan };

    const result = {
      statusChange: { usPerChange: changes.us },
      refresh,
      laterRefresh,
      mixedRefresh,
      carrierAnalytics: {
        big: Number(values.big),
        small: Number(values.small),
        bigMs: Number(bigMs.toFixed(2)),
        smallMs: Number(smallMs.toFixed(2)),
        ratio: Number((smallMs / bigMs).toFixed(3)),
        goal: 0.8,
        unfolded: {
          bigMs: Number(unfolded.bigMs.toFixed(2)),
          smallMs: Number(unfolded.smallMs.toFixed(2)),
          ratio: Number((unfolded.smallMs / unfolded.bigMs).toFixed(3)),
        },
      },
      node: process.version,
    };
    console.log(JSON.stringify(result, null, 2));
    // A part not run (NaN) misses nothing.
    failed =
      result.refresh.ratio < 0.9 ||
      result.laterRefresh.ratio < 0.9 ||
      result.mixedRefresh.ratio < 0.9 ||
      result.carrierAnalytics.ratio < 0.8;
  } finally {
    await app.close();
  }
  if (failed) {
    console.error('FAILED: a goal was missed');
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
