/**
 * The predictions backfill of a team whose shipments predate predictions (PredictionBackfill)
 * on a seeded history: its speed, and the live heap per shipment of its paged rebuild beside
 * that of the history held in memory (what the in-memory recomputation replays).
 *
 *   node --expose-gc -r ts-node/register/transpile-only bench/prediction-backfill.bench.ts \
 *     [--shipments 50000]
 *
 * DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/bench_predictions (created and
 * migrated when missing); the bench's team is deleted at the end.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import {
  DEMO_LANES,
  generateHistory,
  historyRows,
} from '../src/predictions/history/history-generator';
import { loadHistory } from '../src/seed/bulk-seeder';
import { prepareServiceProcess, rerunAsStarted } from './lib/bench-setup';

const { values } = parseArgs({
  options: { shipments: { type: 'string', default: '50000' } },
});
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_predictions';
const DAY = 86_400_000;

async function main(): Promise<void> {
  if (rerunAsStarted()) return;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (the memory is measured after collections)');
  const n = Number(values.shipments);
  await prepareServiceProcess(DB_URL);
  const { AppModule } = await import('../src/app.module');
  const { PredictionBackfill } = await import('../src/predictions/prediction-backfill');
  const { PredictionBackfillStore } = await import('../src/predictions/prediction-backfill-store');
  const { PredictionRecompute } = await import('../src/predictions/prediction-recompute');
  const { ShipmentFactsSource } = await import('../src/predictions/shipment-facts-source');
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error', 'warn'] });
  const db = app.get(DataSource);
  const [team] = await db.query(`INSERT INTO team (name) VALUES ('bench-backfill') RETURNING id`);
  try {
    const [ws] = await db.query(
      `INSERT INTO workspace (team_id, title) VALUES ($1, 'bench-backfill') RETURNING id`,
      [team.id],
    );
    const now = Date.now();
    for (let i = 0; i < n; i += 20_000) {
      const parcels = generateHistory({
        seed: (now % 1_000_000) + i,
        shipments: Math.min(20_000, n - i),
        from: new Date(now - 180 * DAY),
        to: new Date(now),
        now: new Date(now),
        lanes: DEMO_LANES,
      }).map((p, k) => ({ ...p, trackingNumber: `${p.trackingNumber}-${i + k}` }));
      await loadHistory(db, historyRows(parcels, ws.id), { due: false });
    }
    await db.query(`VACUUM ANALYZE shipment, tracking_checkpoint`);
    console.error(`${n} shipments loaded`);

    // The whole backfill as a node runs it: the paged rebuild, then first decisions.
    await app.get(PredictionBackfillStore).enqueue(db, team.id);
    const started = process.hrtime.bigint();
    await app.get(PredictionBackfill).runOnce();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const [row] = (await app.get(PredictionBackfillStore).list(db)).filter(
      (r) => r.team_id === team.id,
    );
    // Live heap (after a full collection) per shipment: the paged rebuild's at every page
    // boundary, its largest (what it keeps between pages: an id and a time per delivery), and
    // the in-memory recomputation's once it holds the history (what `compute` replays).
    gc();
    const base = process.memoryUsage().heapUsed;
    let pagedLive = 0;
    await app.get(PredictionRecompute).rebuild(team.id, () => {
      gc();
      pagedLive = Math.max(pagedLive, process.memoryUsage().heapUsed - base);
    });
    gc();
    const before = process.memoryUsage().heapUsed;
    const history = await app.get(ShipmentFactsSource).all(db, team.id);
    gc();
    const inMemoryLive = process.memoryUsage().heapUsed - before;
    console.error(`${history.length} shipments' facts held in memory`);
    console.log(
      JSON.stringify(
        {
          shipments: n,
          backfill: {
            seconds: Number(seconds.toFixed(1)),
            shipmentsPerSecond: Math.round(n / seconds),
            decided: row.decided,
            error: row.error,
          },
          liveHeapBytesPerShipment: {
            pagedRebuild: Math.round(pagedLive / n),
            historyInMemory: Math.round(inMemoryLive / n),
          },
          node: process.version,
        },
        null,
        2,
      ),
    );
  } finally {
    await db.query(`DELETE FROM team WHERE id = $1`, [team.id]);
    await app.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
