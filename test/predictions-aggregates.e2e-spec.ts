import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source';
import {
  carrierPerformance,
  dayNumber,
  dayString,
} from '../src/predictions/analytics/carrier-performance';
import { CarrierPerformanceStore } from '../src/predictions/carrier-performance-store';
import {
  addToStats,
  contributionOf,
  nextPromises,
  type ShipmentFacts,
} from '../src/predictions/contribution';
import {
  DEMO_LANES,
  generateHistory,
  historyRows,
  type GeneratedShipment,
} from '../src/predictions/history/history-generator';
import { laneKeys, type LaneKeys } from '../src/predictions/model/lanes';
import { predictDelivery } from '../src/predictions/model/predict';
import { journeyOf, timelineAt } from '../src/predictions/model/stages';
import { MemoryStats, type StatsVector } from '../src/predictions/model/stats';
import { PredictionRecompute, type Recomputation } from '../src/predictions/prediction-recompute';
import { PredictionStore } from '../src/predictions/prediction-store';
import { PredictionWriter } from '../src/predictions/prediction-writer';
import { ShipmentFactsSource } from '../src/predictions/shipment-facts-source';
import { loadHistory } from '../src/seed/bulk-seeder';
import { ShipmentPredictionStore } from '../src/shipments/shipment-prediction-store';
import { CheckpointTimelineStore } from '../src/tracking/checkpoints/checkpoint-timeline-store';
import { WorkspaceLookupStore } from '../src/workspaces/workspace-lookup-store';

/**
 * The aggregates of delivery predictions and carrier analytics are maintained as deltas, one
 * shipment's change at a time; these tests replay a generated history through the stores the
 * way the tracking writer will (phase 2), with the shipments and checkpoints written directly
 * in SQL, and check the result against a full recomputation from those tables.
 */
describe('prediction aggregates', () => {
  let db: DataSource;
  let store: PredictionStore;
  let performance: CarrierPerformanceStore;
  let recompute: PredictionRecompute;
  let teamId: string;
  let workspaces: string[];
  let history: GeneratedShipment[];
  const workspaceOf = new Map<string, string>();

  beforeAll(async () => {
    db = await createDataSource(process.env.DATABASE_URL!).initialize();
    store = new PredictionStore(db);
    performance = new CarrierPerformanceStore(db);
    recompute = new PredictionRecompute(
      db,
      store,
      new ShipmentFactsSource(
        new ShipmentPredictionStore(),
        new CheckpointTimelineStore(),
        new WorkspaceLookupStore(),
      ),
    );
    [{ id: teamId }] = await db.query(
      `INSERT INTO team (name) VALUES ('Predictions') RETURNING id`,
    );
    workspaces = [];
    for (const title of ['Store A', 'Store B']) {
      const [{ id }] = await db.query(
        `INSERT INTO workspace (team_id, title) VALUES ($1, $2) RETURNING id`,
        [teamId, title],
      );
      workspaces.push(id);
    }
    // Seen on 20 February: the last weeks' parcels are still on their way.
    history = generateHistory({
      seed: 26,
      shipments: 160,
      from: new Date('2025-01-01T00:00:00Z'),
      to: new Date('2025-02-15T00:00:00Z'),
      now: new Date('2025-02-16T00:00:00Z'),
      lanes: DEMO_LANES,
    });
    history.forEach((s, i) => workspaceOf.set(s.id, workspaces[i % 2]));
    for (const ws of workspaces) {
      const rows = historyRows(
        history.filter((s) => workspaceOf.get(s.id) === ws),
        ws,
      );
      await loadHistory(db, rows);
    }
    await replayIncrementally();
  });

  afterAll(async () => {
    await db.query('DELETE FROM team WHERE id = $1', [teamId]);
    await db.destroy();
  });

  /** A shipment's stored contribution and the team's stats at its keys, as a refresh reads them. */
  async function readAsRefresh(shipmentId: string, keys: LaneKeys) {
    const read = await store.readBatch(db, [shipmentId], [{ teamId, keys }]);
    return {
      previous: read.contributions.get(shipmentId) ?? null,
      stats: read.stats.get(teamId) ?? new MemoryStats(),
      busy: read.busy.get(teamId) ?? [],
    };
  }

  /** The stored contributions of these shipments (none for a shipment never applied). */
  async function contributionsOf(ids: readonly string[]) {
    return (await store.readBatch(db, ids, [])).contributions;
  }

  /** The facts of a shipment as known at `at`: its checkpoints up to then. */
  function factsAt(s: GeneratedShipment, at: number): ShipmentFacts {
    const timeline = timelineAt(s, at);
    return {
      ...timeline,
      carrier: s.carrier,
      originCountry: s.originCountry,
      destinationCountry: s.destinationCountry,
      postcode: s.postcode,
      carrierDate: journeyOf(timeline).shippedAt !== null ? s.carrierDate : null,
    };
  }

  /**
   * Every shipment's creation and checkpoints in time order; at each, what phase 2's tracking
   * writer does: read the stored contribution and the team's stats at the shipment's keys,
   * predict, compute the contribution, apply it. One change at a time, so that every delivery
   * sees the deliveries before it, as the recomputation's replay does.
   */
  async function replayIncrementally(): Promise<void> {
    const events = history
      .flatMap((s) =>
        [s.createdAt.getTime(), ...s.checkpoints.map((c) => c.at.getTime())].map((at) => ({
          s,
          at,
        })),
      )
      .sort((a, b) => a.at - b.at);
    for (const { s, at } of events) {
      const facts = factsAt(s, at);
      const keys = laneKeys(facts);
      const { previous, stats } = await readAsRefresh(s.id, keys);
      const journey = journeyOf(facts);
      const window = predictDelivery({ journey, keys, now: new Date(at) }, stats);
      const promises = nextPromises(previous?.promises ?? null, facts, journey, window);
      await store.apply(db, [
        {
          shipmentId: s.id,
          teamId,
          workspaceId: workspaceOf.get(s.id)!,
          contribution: contributionOf(facts, {
            promises,
            stats,
            previous: previous?.contribution,
          }),
          promises,
        },
      ]);
    }
  }

  function entriesOf(stats: MemoryStats): Record<string, Record<number, number>> {
    const out: Record<string, Record<number, number>> = {};
    for (const { level, key, vector } of stats.keys()) {
      const { idx, n } = vector.entries();
      if (idx.length === 0) continue;
      out[`${level}/${key}`] = Object.fromEntries(idx.map((x, i) => [x, n[i]]));
    }
    return out;
  }

  function performanceOf(totals: Map<string, Map<number, number>>) {
    return Object.fromEntries(
      [...totals].filter(([, m]) => m.size > 0).map(([k, m]) => [k, Object.fromEntries(m)]),
    );
  }

  async function expectExact(): Promise<Recomputation> {
    const expected = await recompute.compute(teamId);
    expect(entriesOf(await store.teamTotals(teamId))).toEqual(entriesOf(expected.stats));
    for (const ws of workspaces)
      expect(performanceOf(await performance.totals(ws))).toEqual(
        performanceOf(expected.performance.get(ws) ?? new Map()),
      );
    return expected;
  }

  it('replays a history whose parcels are delivered, failed, returned, held and in flight', () => {
    const outcomes = new Set(history.map((s) => s.outcome));
    expect(outcomes).toEqual(new Set(['delivered', 'in_flight', 'returned', 'exception']));
    expect(history.filter((s) => journeyOf(s).failedAttempt).length).toBeGreaterThan(0);
  });

  it('equal a full recomputation from the shipment and checkpoint tables', async () => {
    const expected = await expectExact();
    // Each shipment's stored contribution is the recomputed one, promises included.
    const stored = await store.contributionsOfTeam(db, teamId);
    expect(stored.size).toBe(history.length);
    for (const c of expected.contributions) expect(stored.get(c.shipmentId)).toEqual(c);
    // Some windows were counted from history, not only from the default.
    const coverageLevels = new Set(
      expected.contributions.flatMap((c) => c.contribution.coverageIdx.map((ci) => ci >> 12)),
    );
    expect([...coverageLevels].some((l) => l < 4)).toBe(true);
    // Nothing left to rebuild.
    expect(await recompute.rebuild(teamId)).toBe(0);
  });

  it('read the stats of a prediction in one statement for every level of the chain', async () => {
    const s = history.find((x) => x.carrier === 'dhl' && x.destinationCountry === 'DE')!;
    const keys = laneKeys(s);
    const { stats } = await readAsRefresh(s.id, keys);
    const totals = await store.teamTotals(teamId);
    keys.forEach((key, level) => {
      if (key === null) return;
      const got = stats.vector(level, key)?.entries() ?? { idx: [], n: [] };
      const want = totals.vector(level, key)?.entries() ?? { idx: [], n: [] };
      expect(got).toEqual(want);
    });
    expect((stats.vector(3, 'dhl') as StatsVector).total(1, 0)).toBeGreaterThan(20);
  });

  /** The analytics of a range as the recomputed contributions of the shipments created in it. */
  async function recomputedAnalytics(
    ws: string,
    range: { from: string; to: string },
    byDestination: boolean,
  ) {
    const { contributions } = await recompute.compute(teamId);
    // Each contribution in the range as a sparse row of ones, summed per group by the rule.
    const rows = contributions.flatMap(({ workspaceId, contribution: c }) => {
      const day = dayNumber(c.day);
      if (workspaceId !== ws || day < dayNumber(range.from) || day > dayNumber(range.to)) return [];
      const destination = byDestination ? c.destination : '';
      return [{ carrier: c.carrier, destination, idx: c.perfIdx, n: c.perfIdx.map(() => 1) }];
    });
    return carrierPerformance(rows, byDestination);
  }

  /** Random ranges and groupings read equal to the recomputation, to the last digit. */
  async function expectRangesExact(runs: number): Promise<void> {
    const first = dayNumber('2024-12-25');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.boolean(),
        async (start, length, byDestination) => {
          const range = { from: dayString(first + start), to: dayString(first + start + length) };
          const { groups } = await performance.read(workspaces[0], range, byDestination);
          expect(groups).toEqual(await recomputedAnalytics(workspaces[0], range, byDestination));
        },
      ),
      { numRuns: runs },
    );
  }

  it('answer carrier analytics for a date range exactly as the shipments created in it', async () => {
    for (const byDestination of [false, true]) {
      const range = { from: '2025-01-10', to: '2025-02-03' };
      const { groups } = await performance.read(workspaces[0], range, byDestination);
      expect(groups).toEqual(await recomputedAnalytics(workspaces[0], range, byDestination));
      expect(groups.length).toBeGreaterThan(1);
      expect(groups.every((g) => g.transitDays.p50 !== null)).toBe(true);
    }
    // Every row still a delta row here: the read sums their entries.
    await expectRangesExact(15);
  });

  it('stay exact when compacted: each key folds into one row', async () => {
    const rowsBefore = await db.query(
      `SELECT count(*)::int AS n FROM delivery_stat WHERE team_id = $1`,
      [teamId],
    );
    expect(await store.sweepStats(1)).toBeGreaterThan(0);
    expect(await performance.sweep(0)).toBeGreaterThan(0);
    const [{ n, keys }] = await db.query(
      `SELECT count(*)::int AS n, count(DISTINCT (level, key))::int AS keys FROM delivery_stat WHERE team_id = $1`,
      [teamId],
    );
    expect(n).toBe(keys);
    expect(n).toBeLessThan(rowsBefore[0].n);
    // Every performance delta row went into its key's folded row (one a key: the primary key).
    const [perf] = await db.query(
      `SELECT (SELECT count(*)::int FROM carrier_performance_stat WHERE workspace_id = ANY($1::uuid[])) AS deltas,
              (SELECT count(*)::int FROM carrier_performance_folded WHERE workspace_id = ANY($1::uuid[])) AS folded`,
      [workspaces],
    );
    expect(perf).toEqual({ deltas: 0, folded: expect.any(Number) });
    expect(perf.folded).toBeGreaterThan(0);
    await expectExact();
    await expectRangesExact(15);
  });

  it('apply batches, and fold the keys a read found busy', async () => {
    const some = history.filter((x) => x.outcome === 'delivered').slice(0, 5);
    const stored = [...(await contributionsOf(some.map((x) => x.id))).values()];
    const moved = stored.map((c) => ({
      ...c,
      contribution: { ...c.contribution, destination: 'ZZ', keys: [null, 'x|-|-', 'x|-', 'x', ''] },
    }));
    // 20 round trips of five shipments, one statement each way: 40 delta rows per key.
    for (let i = 0; i < 20; i++) {
      expect(await store.apply(db, moved)).toBe(5);
      expect(await store.apply(db, stored)).toBe(5);
    }
    const keys = laneKeys(some[0]);
    const { busy } = await readAsRefresh(some[0].id, keys);
    expect(busy.map((k) => k.level)).toEqual(expect.arrayContaining([1, 2, 3]));
    await store.compactStats(teamId, busy);
    expect((await readAsRefresh(some[0].id, keys)).busy).toEqual([]);
    const ws = workspaceOf.get(some[0].id)!;
    const range = { from: '2025-01-01', to: '2025-02-28' };
    const read = await performance.read(ws, range, true);
    expect(read.busy.length).toBeGreaterThan(0);
    await performance.compact(ws, read.busy);
    expect((await performance.read(ws, range, true)).busy).toEqual([]);
    await expectExact();
  });

  it('a rebuild storing a first contribution takes turns with a refresh of that shipment', async () => {
    const s = history.find(
      (x) => x.outcome === 'in_flight' && workspaceOf.get(x.id) === workspaces[0],
    )!;
    // As a shipment never predicted: no contribution (its deltas leave with it).
    await db.query('DELETE FROM prediction_contribution WHERE shipment_id = $1', [s.id]);
    const shipments = new ShipmentPredictionStore();
    const timelines = new CheckpointTimelineStore();
    const writer = new PredictionWriter(shipments, timelines, store);
    // A tracking batch of that shipment: its lock, then the stored contribution read (none)...
    const refresh = db.createQueryRunner();
    await refresh.connect();
    await refresh.startTransaction();
    let rebuilt = false;
    let rebuild: Promise<void> | undefined;
    try {
      await shipments.lock(refresh, [s.id]);
      const [row] = await shipments.rows(refresh, [s.id]);
      const checkpoints = (await timelines.timelines(refresh, [s.id])).get(s.id) ?? [];
      const plan = await writer.planTracked(
        refresh,
        [{ row, checkpoints }],
        new Date('2025-02-16T00:00:00Z'),
      );
      // ... while a rebuild of the team runs: it must wait for the shipment's lock.
      rebuild = recompute.rebuild(teamId).then(() => void (rebuilt = true));
      for (let waited = 0; waited < 3000 && !rebuilt; waited += 50) {
        const [{ n }] = await db.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND query LIKE 'SELECT id FROM shipment WHERE id = ANY%FOR UPDATE'`,
        );
        if (n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(rebuilt).toBe(false);
      // ... then the refresh writes the first contribution and commits.
      await plan.finish();
      await refresh.commitTransaction();
      await rebuild;
    } finally {
      if (refresh.isTransactionActive) await refresh.rollbackTransaction();
      await refresh.release();
      await rebuild?.catch(() => undefined);
    }
    // Counted once: the aggregates are the sum of the contributions stored.
    await expectExact();
  });

  it('take a deleted shipment away, by whatever deletes it', async () => {
    // Shipments that were never delivered: the stats stay as they are (coverage included).
    const gone = history
      .filter((s) => s.outcome === 'returned' || s.outcome === 'exception')
      .slice(0, 3);
    expect(gone.length).toBeGreaterThan(0);
    await db.query('DELETE FROM shipment WHERE id = ANY($1::uuid[])', [gone.map((s) => s.id)]);
    const expected = await expectExact();
    expect(expected.contributions).toHaveLength(history.length - gone.length);

    // A delivered one: exactly its contribution leaves the histograms.
    const delivered = history.find((s) => s.outcome === 'delivered')!;
    const stored = (await contributionsOf([delivered.id])).get(delivered.id)!;
    const before = await store.teamTotals(teamId);
    await db.query('DELETE FROM shipment WHERE id = $1', [delivered.id]);
    addToStats(before, stored.contribution, -1);
    expect(entriesOf(await store.teamTotals(teamId))).toEqual(entriesOf(before));
    expect(await contributionsOf([delivered.id])).toEqual(new Map());

    // A whole workspace: its shipments cascade, their contributions leave both aggregates.
    const [, second] = workspaces;
    const theirs = [...(await store.contributionsOfTeam(db, teamId)).values()].filter(
      (c) => c.workspaceId === second,
    );
    expect(theirs.length).toBeGreaterThan(0);
    const team = await store.teamTotals(teamId);
    for (const c of theirs) addToStats(team, c.contribution, -1);
    await db.query('DELETE FROM workspace WHERE id = $1', [second]);
    expect(entriesOf(await store.teamTotals(teamId))).toEqual(entriesOf(team));
    expect(await performance.totals(second)).toEqual(new Map());
  });

  it('apply nothing for an unchanged contribution', async () => {
    const s = history.find(
      (x) => x.outcome === 'in_flight' && workspaceOf.get(x.id) === workspaces[0],
    )!;
    const stored = (await contributionsOf([s.id])).get(s.id)!;
    const [{ n: rows }] = await db.query(`SELECT count(*)::int AS n FROM carrier_performance_stat`);
    expect(await store.apply(db, [stored])).toBe(0);
    expect((await db.query(`SELECT count(*)::int AS n FROM carrier_performance_stat`))[0].n).toBe(
      rows,
    );
  });

  it('read folded rows and delta rows together, and fold a deleted workspace to nothing', async () => {
    // The deletions above left negative delta rows on top of the folded rows.
    const [{ n: deltas }] = await db.query(
      `SELECT count(*)::int AS n FROM carrier_performance_stat WHERE workspace_id = $1`,
      [workspaces[0]],
    );
    expect(deltas).toBeGreaterThan(0);
    await expectRangesExact(20);
    await performance.sweep(0);
    // The team's delivery stats keep what deleted deliveries taught (the test above): only the
    // carrier performance is compared here.
    const expected = await recompute.compute(teamId);
    expect(performanceOf(await performance.totals(workspaces[0]))).toEqual(
      performanceOf(expected.performance.get(workspaces[0])!),
    );
    await expectRangesExact(10);
    const [{ n: left }] = await db.query(
      `SELECT count(*)::int AS n FROM carrier_performance_folded WHERE workspace_id = $1`,
      [workspaces[1]],
    );
    expect(left).toBe(0);
  });
});
