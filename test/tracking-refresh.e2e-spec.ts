import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { JobQueue } from '../src/jobs/job-queue';
import { Clock } from '../src/tracking/clock';
import { TrackingProviderRegistry } from '../src/tracking/providers';
import { TrackingService } from '../src/tracking/tracking-service/tracking.service';
import {
  REFRESH_LEASE_MS,
  REFRESH_QUEUE,
  TrackingRefresher,
} from '../src/tracking/refresh/tracking-refresher';
import { Tenant, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';

/** An app of its own on the same database, with or without job workers and periodic tick. */
async function startNode(
  workers: boolean,
  env: Record<string, string> = {},
): Promise<NestExpressApplication> {
  const overrides: Record<string, string> = { JOB_WORKERS_ENABLED: String(workers), ...env };
  const previous = Object.fromEntries(Object.keys(overrides).map((k) => [k, process.env[k]]));
  Object.assign(process.env, overrides);
  try {
    return await createTestApp();
  } finally {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Records every number a node's provider registry is asked about. */
function recordTracked(app: NestExpressApplication): string[] {
  const registry = app.get(TrackingProviderRegistry);
  const real = registry.track.bind(registry);
  const seen: string[] = [];
  jest.spyOn(registry, 'track').mockImplementation(async (number, carrier, ctx) => {
    seen.push(number);
    // Yield, so that two nodes in one process interleave like two processes would.
    await new Promise((r) => setTimeout(r, 1));
    return real(number, carrier, ctx);
  });
  return seen;
}

describe('background refresh', () => {
  let a: NestExpressApplication;
  let b: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;
  let run = 0;

  beforeAll(async () => {
    [a, b] = [await startNode(false), await startNode(false)];
    db = a.get(DataSource);
  });
  beforeEach(async () => {
    tenant = await createTenant(a);
    run += 1;
  });
  afterEach(() => {
    a.get(Clock).reset();
    b.get(Clock).reset();
    jest.restoreAllMocks();
  });
  afterAll(async () => {
    await closeTestApp(a);
    await closeTestApp(b);
  });

  /** `count` due, never tracked shipments with distinct sandbox numbers (generate_series). */
  async function seed(count: number, prefix = '102'): Promise<string[]> {
    // This worker's database is shared with the spec files that ran before in
    // the same worker: park their still-due shipments so counts are ours only.
    await db.query(`UPDATE shipment SET next_check_at = NULL WHERE workspace_id <> $1`, [
      tenant.workspaceId,
    ]);
    const rows: Array<{ tracking_number: string }> = await db.query(
      `INSERT INTO shipment (workspace_id, tracking_number, origin_carrier)
       SELECT $1, 'TM' || $2 || 'R' || $3 || 'N' || g || 'TM', 'tm-test'
         FROM generate_series(1, $4) AS g
       RETURNING tracking_number`,
      [tenant.workspaceId, prefix, `${process.pid}${run}`, count],
    );
    return rows.map((r) => r.tracking_number);
  }
  const statuses = async () =>
    db.query(
      `SELECT tracking_status AS status, count(*)::int AS n, min(next_check_at) AS next,
              min(tracking_error) AS error
         FROM shipment WHERE workspace_id = $1 GROUP BY tracking_status`,
      [tenant.workspaceId],
    );

  it('two nodes refreshing at once process every due shipment exactly once', async () => {
    const numbers = await seed(600);
    const seenA = recordTracked(a);
    const seenB = recordTracked(b);
    const [roundA, roundB] = await Promise.all([
      a.get(TrackingRefresher).runUntilIdle(40),
      b.get(TrackingRefresher).runUntilIdle(40),
    ]);
    expect(roundA.claimed + roundB.claimed).toBe(600);
    expect(roundA.claimed).toBeGreaterThan(0);
    expect(roundB.claimed).toBeGreaterThan(0);
    const seen = [...seenA, ...seenB];
    expect(seen).toHaveLength(600);
    expect(new Set(seen).size).toBe(600);
    expect([...seen].sort()).toEqual([...numbers].sort());
    const [row] = await statuses();
    expect(row).toMatchObject({ status: 'in_transit', n: 600 });
    // Next check in about 3 hours (in_transit), so another round finds nothing.
    expect(new Date(row.next).getTime()).toBeGreaterThan(Date.now() + 2 * 3_600_000);
    expect((await a.get(TrackingRefresher).runBatch()).claimed).toBe(0);
  });

  it('a node that dies after claiming leaves its shipments due again after the lease', async () => {
    await seed(10, '204');
    const claimed = await a.get(TrackingRefresher).claimDue(100);
    expect(claimed).toHaveLength(10);
    // Leased: the other node does not see them...
    expect(await b.get(TrackingRefresher).claimDue(100)).toEqual([]);
    // ...until the lease ends.
    b.get(Clock).set(new Date(Date.now() + REFRESH_LEASE_MS + 60_000));
    const round = await b.get(TrackingRefresher).runBatch(100);
    expect(round.claimed).toBe(10);
    expect(await statuses()).toEqual([
      expect.objectContaining({ status: 'delivery_in_progress', n: 10 }),
    ]);
  });

  it('the periodic tick enqueues durable jobs that survive a restart and run on any node', async () => {
    await seed(250, '202');
    let producer: NestExpressApplication | undefined = await startNode(false);
    let consumer: NestExpressApplication | undefined;
    try {
      const enqueued = await producer.get(TrackingRefresher).enqueueDue(250);
      expect(enqueued).toBe(250);
      expect(await producer.get(JobQueue).pending(REFRESH_QUEUE)).toBe(3);
      await closeTestApp(producer);
      producer = undefined;
      // Nothing processed them yet: the producer ran no workers.
      expect(await statuses()).toEqual([expect.objectContaining({ status: null, n: 250 })]);
      consumer = await startNode(true);
      let rows: Array<{ status: string | null; n: number }> = [];
      for (let i = 0; i < 80; i++) {
        rows = await statuses();
        if (rows.length === 1 && rows[0].status === 'available_for_pickup') break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(rows).toEqual([expect.objectContaining({ status: 'available_for_pickup', n: 250 })]);
      expect(await consumer.get(JobQueue).pending(REFRESH_QUEUE)).toBe(0);
    } finally {
      await closeTestApp(producer);
      await closeTestApp(consumer);
    }
  });

  it('with the scheduler on, due shipments are refreshed without anyone asking', async () => {
    await seed(30, '410');
    const node = await startNode(true, {
      TRACKING_REFRESH_ENABLED: 'true',
      TRACKING_REFRESH_INTERVAL_SECONDS: '1',
    });
    try {
      let rows: Array<{ status: string | null; n: number }> = [];
      for (let i = 0; i < 60; i++) {
        rows = await statuses();
        if (rows.length === 1 && rows[0].status === 'unsuccessful_delivery') break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(rows).toEqual([expect.objectContaining({ status: 'unsuccessful_delivery', n: 30 })]);
    } finally {
      await closeTestApp(node);
    }
  });

  it('final shipments are never claimed again', async () => {
    await seed(5, '200');
    const mine: Array<{ id: string }> = await db.query(
      `SELECT id FROM shipment WHERE workspace_id = $1`,
      [tenant.workspaceId],
    );
    // Tracked directly, not through a claim: what is under test is the claim that follows.
    await a.get(TrackingService).trackMany(mine.map((m) => m.id));
    expect(await statuses()).toEqual([
      expect.objectContaining({ status: 'delivered', n: 5, next: null }),
    ]);
    a.get(Clock).set(new Date(Date.now() + 400 * 86_400_000));
    // Shipments of earlier tests are due by now; these delivered ones never are.
    const claimed = await a.get(TrackingRefresher).claimDue(10_000);
    expect(claimed.filter((id) => mine.some((m) => m.id === id))).toEqual([]);
  });
});
