import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { QUEUE_TEAMS_BEFORE_PREDICTIONS } from '../migrations/1767000000000-PredictionBackfill';
import type { CliContext } from '../src/cli/cli-command';
import { predictionBackfillCommand } from '../src/cli/commands/prediction-backfill.command';
import { PREDICTION_EVENTS } from '../src/events/event-types';
import {
  DEMO_LANES,
  generateHistory,
  historyRows,
} from '../src/predictions/history/history-generator';
import { isDecidable } from '../src/predictions/model/attention';
import { PredictionBackfill } from '../src/predictions/prediction-backfill';
import { PredictionBackfillStore } from '../src/predictions/prediction-backfill-store';
import { PredictionRecompute } from '../src/predictions/prediction-recompute';
import { PredictionStore } from '../src/predictions/prediction-store';
import { loadHistory } from '../src/seed/bulk-seeder';
import { Clock } from '../src/tracking/clock';
import { createTenant, type Tenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

const DAY = 86_400_000;

/**
 * A database upgraded from before predictions: its shipments and checkpoints exist, with no
 * contribution, no window and no attention. The migration's query queues their team; the
 * background backfill counts the history into the aggregates (exactly: a rebuild changes
 * nothing afterwards), gives the parcels on the way a window learnt from that history and the
 * exceptions their attention, sends no event for them, records what it did, retries a failure
 * after its lease, and the CLI shows and re-queues it.
 */
describe('prediction backfill of shipments that predate predictions', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let clock: Clock;
  let backfill: PredictionBackfill;
  let queue: PredictionBackfillStore;
  let tenant: Tenant;
  let history: ReturnType<typeof generateHistory>;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    clock = app.get(Clock);
    backfill = app.get(PredictionBackfill);
    queue = app.get(PredictionBackfillStore);
    tenant = await createTenant(app);
    const now = Date.now();
    history = generateHistory({
      seed: 19,
      // More deliveries than a rebuild page (1 000): the stats carry from page to page.
      shipments: 1500,
      from: new Date(now - 90 * DAY),
      to: new Date(now),
      now: new Date(now),
      lanes: [DEMO_LANES[2]], // UPS US -> US: enough deliveries for windows from history
    });
    // Rows as an older version wrote them: no contribution, no decision.
    await loadHistory(db, historyRows(history, tenant.workspaceId), { due: false });
  });
  afterEach(() => clock.reset());
  afterAll(() => closeTestApp(app));

  const stateOf = async () =>
    (await queue.list(db)).find((r) => r.team_id === tenant.teamId) ?? null;

  it("queues the team by the migration's query, and backfills it", async () => {
    await db.query(QUEUE_TEAMS_BEFORE_PREDICTIONS);
    expect(await stateOf()).toMatchObject({ finished_at: null, attempts: 0 });
    // Other spec files' teams in this worker's database are not this test's.
    await db.query(`DELETE FROM prediction_backfill WHERE team_id <> $1`, [tenant.teamId]);

    expect(await backfill.runUntilIdle()).toBe(1);
    const inFlight = history.filter((s) => isDecidable(s.status));
    expect(inFlight.length).toBeGreaterThan(10);
    expect(await stateOf()).toMatchObject({
      attempts: 1,
      error: null,
      shipments: history.length,
      decided: inFlight.length,
    });
    expect((await stateOf())!.finished_at).not.toBeNull();
    // Exact: what the backfill stored page by page is what the in-memory recomputation of the
    // tables gives, contribution by contribution; and a rebuild finds nothing to change.
    const recompute = app.get(PredictionRecompute);
    const stored = await app.get(PredictionStore).contributionsOfTeam(db, tenant.teamId);
    const expected = await recompute.compute(tenant.teamId);
    expect(stored.size).toBe(history.length);
    for (const c of expected.contributions) expect(stored.get(c.shipmentId)).toEqual(c);
    expect(expected.contributions.some((c) => c.contribution.coverageIdx.length > 0)).toBe(true);
    expect(await recompute.rebuild(tenant.teamId)).toBe(0);
    // Nothing is due any more.
    expect(await backfill.runOnce()).toBe(false);
  });

  it('gave the parcels on the way windows from the history, and exceptions their attention', async () => {
    const client = api(app, { token: tenant.token });
    const moving = history.find((s) => s.status === 'in_transit')!;
    const shipment = (await client.get(`/shipments/${moving.id}`).expect(200)).body;
    expect(shipment.deliveryPrediction.basis.kind).not.toBe('default');
    expect(shipment.deliveryPrediction.basis.deliveries).toBeGreaterThanOrEqual(25);
    const delivered = history.find((s) => s.status === 'delivered')!;
    expect(
      (await client.get(`/shipments/${delivered.id}`).expect(200)).body.deliveryPrediction,
    ).toBeNull();
    const exceptions = history.filter((s) => s.status === 'error' || s.status === 'expired');
    expect(exceptions.length).toBeGreaterThan(0);
    const listed = (await client.get('/shipments?attention=exception').expect(200)).body;
    expect(listed['hydra:totalItems']).toBe(exceptions.length);
    // Old news is not announced: no prediction or attention event for these parcels.
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM outbox_event WHERE workspace_id = $1 AND type = ANY($2)`,
      [tenant.workspaceId, [...PREDICTION_EVENTS]],
    );
    expect(n).toBe(0);
  });

  it('holds a claim for one node, and retries a failed team once its lease ends', async () => {
    await queue.enqueue(db, tenant.teamId);
    const now = new Date();
    const first = await queue.claim(db, now, new Date(now.getTime() + 60_000), 5);
    expect(first).toEqual({ teamId: tenant.teamId, attempts: 1 });
    // Another node finds nothing while the lease holds.
    expect(await queue.claim(db, now, new Date(now.getTime() + 60_000), 5)).toBeNull();

    await queue.enqueue(db, tenant.teamId);
    const rebuild = jest
      .spyOn(app.get(PredictionRecompute), 'rebuild')
      .mockRejectedValueOnce(new Error('out of memory, say'));
    try {
      expect(await backfill.runOnce()).toBe(true);
      expect(await stateOf()).toMatchObject({
        finished_at: null,
        attempts: 1,
        error: 'out of memory, say',
      });
      expect(await backfill.runOnce()).toBe(false);
      clock.set(new Date(Date.now() + 11 * 60_000));
      expect(await backfill.runOnce()).toBe(true);
    } finally {
      rebuild.mockRestore();
    }
    expect(await stateOf()).toMatchObject({ attempts: 2, error: null, decided: 0 });
    expect((await stateOf())!.finished_at).not.toBeNull();
  });

  it('is shown and re-queued by the CLI', async () => {
    const printed: string[] = [];
    const context = {
      dataSource: async () => db,
      print: (line: string) => printed.push(line),
    } as unknown as CliContext;
    await predictionBackfillCommand.run(['--queue', '--workspace', tenant.workspaceId], context);
    const rows = printed.map((l) => JSON.parse(l));
    expect(rows.find((r) => r.team_id === tenant.teamId)).toMatchObject({
      finished_at: null,
      attempts: 0,
    });
    await expect(predictionBackfillCommand.run(['--queue'], context)).rejects.toThrow(
      /--workspace/,
    );
    await expect(
      predictionBackfillCommand.run(['--workspace', tenant.workspaceId], context),
    ).rejects.toThrow(/only for --queue/);
    await expect(
      predictionBackfillCommand.run(
        ['--queue', '--workspace', '00000000-0000-4000-8000-000000000000'],
        context,
      ),
    ).rejects.toThrow(/No workspace/);
    // Run again: it counts the same history and changes nothing.
    expect(await backfill.runUntilIdle()).toBe(1);
    expect(await stateOf()).toMatchObject({ attempts: 1, contributions: 0, decided: 0 });
  });
});
