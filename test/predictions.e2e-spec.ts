import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { CarrierPerformanceStore } from '../src/predictions/carrier-performance-store';
import { AttentionSweeper } from '../src/predictions/attention-sweeper';
import {
  generateHistory,
  historyRows,
  DEMO_LANES,
} from '../src/predictions/history/history-generator';
import { PredictionRecompute } from '../src/predictions/prediction-recompute';
import type { MemoryStats } from '../src/predictions/model/stats';
import { PredictionStore } from '../src/predictions/prediction-store';
import { PredictionWriter } from '../src/predictions/prediction-writer';
import { loadHistory } from '../src/seed/bulk-seeder';
import { Clock } from '../src/tracking/clock';
import type { ProviderCheckpoint } from '../src/tracking/providers/tracking-provider';
import type { TrackingStatusCode } from '../src/tracking/statuses';
import { TrackingService } from '../src/tracking/tracking-service/tracking.service';
import { testTrackingNumber } from './factories/commerce.factory';
import { createTenant, type Tenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Issue 26 end to end: a shipment gets its delivery window on create and on each status
 * change, `shipment.delivery_prediction_changed` fires once per real move, attention appears
 * (status changes, the sweeper's time rules) and clears, the list filters by it with a
 * maintained count, and the carrier analytics equal a recomputation after concurrent writes.
 */
describe('delivery predictions and attention', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let clock: Clock;
  let tracking: TrackingService;
  let sweeper: AttentionSweeper;
  let tenant: Tenant;
  let externalId = 0;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    clock = app.get(Clock);
    tracking = app.get(TrackingService);
    sweeper = app.get(AttentionSweeper);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
  });
  afterEach(() => clock.reset());
  afterAll(() => closeTestApp(app));

  const client = () => api(app, { token: tenant.token });
  const create = async (body: Record<string, unknown> = {}) =>
    (
      await client()
        .post('/shipments', {
          workspace: `/workspaces/${tenant.workspaceId}`,
          trackingNumber: `ZZ${Math.random().toString().slice(2, 12)}`,
          originCarrier: 'ups',
          ...body,
        })
        .expect(201)
    ).body;
  const shipment = async (id: string) => (await client().get(`/shipments/${id}`).expect(200)).body;

  /** Pushes one checkpoint through the tracking engine (as a carrier's push would). */
  async function push(id: string, status: TrackingStatusCode, at: Date): Promise<void> {
    const checkpoint: ProviderCheckpoint = {
      externalId: `cp-${++externalId}`,
      checkpointDate: at,
      status,
      info: status,
      location: null,
      countryIso2: 'US',
      carrierCode: 'ups',
    };
    await db.transaction((em) => tracking.ingest(em, id, [checkpoint]));
  }

  async function events(id: string, type: string): Promise<Array<Record<string, any>>> {
    const rows: Array<{ payload: Record<string, any> }> = await db.query(
      `SELECT payload FROM outbox_event WHERE aggregate_id = $1 AND type = $2 ORDER BY id`,
      [id, type],
    );
    return rows.map((r) => r.payload);
  }

  it('a new shipment gets a default window and expectedDeliveryDate is its likely day', async () => {
    const s = await create();
    const p = s.deliveryPrediction;
    expect(p).toEqual({
      earliest: expect.any(String),
      likely: expect.any(String),
      latest: expect.any(String),
      confidence: expect.any(Number),
      basis: { kind: 'default', level: 'default', deliveries: 0 },
    });
    expect(Date.parse(p.earliest)).toBeLessThanOrEqual(Date.parse(p.likely));
    expect(Date.parse(p.likely)).toBeLessThanOrEqual(Date.parse(p.latest));
    expect(Date.parse(p.earliest)).toBeGreaterThanOrEqual(Date.parse(s.createdAt) - 1000);
    expect(s.expectedDeliveryDate).toBe(p.likely);
    expect(s.attention).toBeNull();
    // The plain JSON and CSV forms carry it too.
    const json = (
      await api(app, { token: tenant.token }).json().get(`/shipments/${s.id}`).expect(200)
    ).body;
    expect(json.deliveryPrediction.basis.kind).toBe('default');
    const csv = await client()
      .get(`/workspaces/${tenant.workspaceId}/shipments`)
      .set('Accept', 'text/csv')
      .expect(200);
    // One column holding the window as JSON (as customFields), one for attention.
    const header = csv.text.split('\n')[0].split(',');
    expect(header).toEqual(expect.arrayContaining(['deliveryPrediction', 'attention']));
    expect(csv.text).toContain(`""likely"":""${p.likely}""`);
  });

  it('a create decides its prediction with its INSERT, as a recomputation from its rows would', async () => {
    const now = Date.now();
    clock.set(new Date(now));
    const shown = (x: Record<string, any>) => ({
      deliveryPrediction: x.deliveryPrediction,
      expectedDeliveryDate: x.expectedDeliveryDate,
      attention: x.attention,
    });
    // Tracked on create (in transit, out for delivery, delivered, an error, at a pickup point).
    for (const prefix of ['102', '204', '200', '404', '202']) {
      const created = await create({
        trackingNumber: testTrackingNumber(prefix),
        originCarrier: null,
      });
      const [{ n: events }] = await db.query(
        `SELECT count(*)::int AS n FROM outbox_event WHERE aggregate_id = $1`,
        [created.id],
      );
      // The writer's recomputation from the stored row and checkpoints finds nothing to change:
      // the same columns, no contribution to write, no event.
      const saved = await db.transaction((em) =>
        app.get(PredictionWriter).refresh(em, [created.id], new Date(now)),
      );
      expect(saved).toBe(0);
      expect(shown(await shipment(created.id))).toEqual(shown(created));
      const [{ n: after }] = await db.query(
        `SELECT count(*)::int AS n FROM outbox_event WHERE aggregate_id = $1`,
        [created.id],
      );
      expect(after).toBe(events);
    }
  });

  it('recomputes on each status change; the event fires once per move of a day or more', async () => {
    const s = await create();
    const now = Date.now();
    clock.set(new Date(now));
    await push(s.id, 'in_transit', new Date(now - HOUR));
    const inTransit = await shipment(s.id);
    // The label window (median 4 d, 90 % 12 d) gives way to the in-transit one (2.5 d, 8 d).
    expect(Date.parse(inTransit.deliveryPrediction.latest)).toBeLessThan(
      Date.parse(s.deliveryPrediction.latest) - DAY,
    );
    let moved = await events(s.id, 'shipment.delivery_prediction_changed');
    expect(moved).toHaveLength(1);
    expect(moved[0]).toEqual({
      shipment: `/shipments/${s.id}`,
      trackingNumber: s.trackingNumber,
      previous: {
        earliest: s.deliveryPrediction.earliest,
        likely: s.deliveryPrediction.likely,
        latest: s.deliveryPrediction.latest,
      },
      current: {
        earliest: inTransit.deliveryPrediction.earliest,
        likely: inTransit.deliveryPrediction.likely,
        latest: inTransit.deliveryPrediction.latest,
      },
    });
    // The same evidence again, an hour later: the window barely moves, no event.
    clock.set(new Date(now + HOUR));
    await push(s.id, 'in_transit', new Date(now));
    expect(await events(s.id, 'shipment.delivery_prediction_changed')).toHaveLength(1);
    // Out for delivery: the window closes in to the day, announced once.
    await push(s.id, 'delivery_in_progress', new Date(now + HOUR / 2));
    const out = await shipment(s.id);
    expect(Date.parse(out.deliveryPrediction.latest)).toBeLessThan(now + 2 * DAY);
    moved = await events(s.id, 'shipment.delivery_prediction_changed');
    expect(moved).toHaveLength(2);
    // Delivered: final, no window, no event.
    await push(s.id, 'delivered', new Date(now + HOUR));
    const delivered = await shipment(s.id);
    expect(delivered.trackingStatus).toBe('delivered');
    expect(delivered.deliveryPrediction).toBeNull();
    expect(await events(s.id, 'shipment.delivery_prediction_changed')).toHaveLength(2);
  });

  it('a tracking update with nothing new keeps the window; a new checkpoint recomputes it', async () => {
    const s = await create();
    const now = Date.now();
    clock.set(new Date(now));
    const scan: ProviderCheckpoint = {
      externalId: `cp-${++externalId}`,
      checkpointDate: new Date(now - HOUR),
      status: 'in_transit',
      info: 'in_transit',
      location: null,
      countryIso2: 'US',
      carrierCode: 'ups',
    };
    await db.transaction((em) => tracking.ingest(em, s.id, [scan]));
    const decided = await shipment(s.id);
    const moved = (await events(s.id, 'shipment.delivery_prediction_changed')).length;
    // Four days on, the carrier reports the same scan: no evidence, nothing recomputed (the
    // window conditioned on four days in transit would be days later).
    clock.set(new Date(now + 4 * DAY));
    await db.transaction((em) => tracking.ingest(em, s.id, [{ ...scan }]));
    const kept = await shipment(s.id);
    expect(kept.deliveryPrediction).toEqual(decided.deliveryPrediction);
    expect(kept.expectedDeliveryDate).toBe(decided.expectedDeliveryDate);
    expect(await events(s.id, 'shipment.delivery_prediction_changed')).toHaveLength(moved);
    // A new scan is evidence: the window is recomputed from four days in transit, and moves.
    await push(s.id, 'in_transit', new Date(now + 4 * DAY - HOUR));
    const recomputed = await shipment(s.id);
    expect(Date.parse(recomputed.deliveryPrediction.likely)).toBeGreaterThan(
      Date.parse(decided.deliveryPrediction.likely) + DAY,
    );
    expect(recomputed.expectedDeliveryDate).toBe(recomputed.deliveryPrediction.likely);
    expect(await events(s.id, 'shipment.delivery_prediction_changed')).toHaveLength(moved + 1);
  });

  it('stalled appears after the silence threshold, fires once, and clears with a checkpoint', async () => {
    const s = await create();
    const start = Date.now();
    clock.set(new Date(start));
    await push(s.id, 'in_transit', new Date(start - HOUR));
    expect((await shipment(s.id)).attention).toBeNull();
    // The in-transit default: stalled after 4 days without a checkpoint.
    clock.set(new Date(start + 5 * DAY));
    await sweeper.sweep();
    const stalled = await shipment(s.id);
    expect(stalled.attention).toBe('stalled');
    await sweeper.sweep(new Date(start + 5 * DAY + HOUR));
    const fired = await events(s.id, 'shipment.stalled');
    expect(fired).toEqual([
      {
        shipment: `/shipments/${s.id}`,
        trackingNumber: s.trackingNumber,
        attention: 'stalled',
        attentionCodes: ['stalled'],
      },
    ]);
    const list = await client()
      .get(`/workspaces/${tenant.workspaceId}/shipments?attention=stalled`)
      .expect(200);
    expect(list.body['hydra:totalItems']).toBe(1);
    const both = await client()
      .get(`/workspaces/${tenant.workspaceId}/shipments?attention[]=stalled&attention[]=late`)
      .expect(200);
    expect(both.body['hydra:member'].map((m: { id: string }) => m.id)).toEqual([s.id]);
    // A new checkpoint: moving again, attention clears, no new event.
    await push(s.id, 'in_transit', new Date(start + 5 * DAY - HOUR));
    expect((await shipment(s.id)).attention).toBeNull();
    expect(await events(s.id, 'shipment.stalled')).toHaveLength(1);
    const after = await client()
      .get(`/workspaces/${tenant.workspaceId}/shipments?attention=stalled`)
      .expect(200);
    expect(after.body['hydra:totalItems']).toBe(0);
  });

  it('late once past the announced window, waiting at a pickup point, exception on error', async () => {
    const start = Date.now();
    clock.set(new Date(start));
    const late = await create();
    const latest = Date.parse(late.deliveryPrediction.latest);
    await sweeper.sweep(new Date(latest + HOUR));
    const lateNow = await shipment(late.id);
    expect(lateNow.attention).toBe('stalled'); // a label that long without a scan is stalled too
    const [{ attention_codes: codes }] = await db.query(
      `SELECT attention_codes FROM shipment WHERE id = $1`,
      [late.id],
    );
    expect(codes).toEqual(['stalled', 'late']);
    expect(await events(late.id, 'shipment.late')).toHaveLength(1);

    await db.query(`UPDATE workspace SET attention_waiting_days = 2 WHERE id = $1`, [
      tenant.workspaceId,
    ]);
    const pickup = await create();
    await push(pickup.id, 'available_for_pickup', new Date(start - HOUR));
    expect((await shipment(pickup.id)).attention).toBeNull();
    await sweeper.sweep(new Date(start + 2 * DAY + HOUR));
    expect((await shipment(pickup.id)).attention).toBe('waiting');
    expect(await events(pickup.id, 'shipment.waiting')).toHaveLength(1);

    const failed = await create();
    await push(failed.id, 'error', new Date(start - HOUR));
    const error = await shipment(failed.id);
    expect(error.attention).toBe('exception');
    expect(await events(failed.id, 'shipment.exception')).toHaveLength(1);
  });

  it('the waiting days are a validated workspace setting', async () => {
    const ws = `/workspaces/${tenant.workspaceId}`;
    const current = (await client().get(ws).expect(200)).body;
    expect(current.attentionWaitingDays).toBe(3);
    const bad = await client().put(ws, { attentionWaitingDays: 0 }).expect(422);
    expect(bad.body.violations[0].propertyPath).toBe('attentionWaitingDays');
    await client().put(ws, { attentionWaitingDays: 'x' }).expect(400);
    await client().put(ws, { attentionWaitingDays: 5 }).expect(200);
    expect((await client().get(ws).expect(200)).body.attentionWaitingDays).toBe(5);
  });

  it('learns from the team history: windows from history once the lane has deliveries', async () => {
    const history = generateHistory({
      seed: 3,
      shipments: 400,
      from: new Date(Date.now() - 120 * DAY),
      to: new Date(Date.now() - 20 * DAY),
      lanes: [DEMO_LANES[2]], // UPS US -> US
    });
    await insertHistory(history);
    await app.get(PredictionRecompute).rebuild(tenant.teamId);
    const s = await create({ address: { countryIso2: 'US', postcode: '10001' } });
    expect(s.deliveryPrediction.basis.kind).toBe('history');
    expect(s.deliveryPrediction.basis.deliveries).toBeGreaterThanOrEqual(25);
  });

  it('carrier analytics: JSON-LD, JSON, CSV, grouped; equal a recomputation after concurrent writes', async () => {
    const start = Date.now();
    clock.set(new Date(start));
    const history = generateHistory({
      seed: 11,
      shipments: 200,
      from: new Date(start - 60 * DAY),
      to: new Date(start - 10 * DAY),
      lanes: DEMO_LANES,
    });
    await insertHistory(history);
    await app.get(PredictionRecompute).rebuild(tenant.teamId);
    // Concurrent status changes of new shipments, each in its own transaction.
    const fresh = await Promise.all(Array.from({ length: 6 }, () => create()));
    await Promise.all(
      fresh.flatMap((s, i) => [
        push(s.id, 'in_transit', new Date(start - 3 * HOUR)).then(() =>
          i % 2 === 0 ? push(s.id, 'delivered', new Date(start - HOUR)) : undefined,
        ),
      ]),
    );
    const recomputed = await app.get(PredictionRecompute).compute(tenant.teamId);
    const stored = await app.get(CarrierPerformanceStore).totals(tenant.workspaceId);
    const expected = recomputed.performance.get(tenant.workspaceId)!;
    expect(sortedEntries(stored)).toEqual(sortedEntries(expected));
    const totals = await app.get(PredictionStore).teamTotals(tenant.teamId);
    expect(entriesOf(totals)).toEqual(entriesOf(recomputed.stats));

    const from = new Date(start - 70 * DAY).toISOString().slice(0, 10);
    const to = new Date(start).toISOString().slice(0, 10);
    const path = `/workspaces/${tenant.workspaceId}/carrier_performance?from=${from}&to=${to}`;
    const ld = (await client().get(path).expect(200)).body;
    expect(ld['@type']).toBe('hydra:Collection');
    const members = ld['hydra:member'];
    const carriers = members.map((m: { carrier: string }) => m.carrier).sort();
    expect(carriers).toEqual(['dhl', 'ups', 'usps']);
    const ups = members.find((m: { carrier: string }) => m.carrier === 'ups');
    expect(ups.shipments).toBe(history.filter((h) => h.carrier === 'ups').length + fresh.length);
    expect(ups.deliveryRate).toBeGreaterThan(0);
    expect(ups.transitDays.p50).toBeGreaterThan(0);
    expect(ups.destinationCountry).toBeNull();
    const plain = (await api(app, { token: tenant.token }).json().get(path).expect(200)).body;
    expect(plain).toEqual(members.map(({ '@id': _i, '@type': _t, ...m }: any) => m));
    const csv = await client().get(path).set('Accept', 'text/csv').expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text.split('\n')[0]).toContain('transitDays.p50');
    expect(csv.text.trim().split('\n')).toHaveLength(1 + members.length);
    const byDestination = (await client().get(`${path}&groupBy=destination`).expect(200)).body;
    expect(
      byDestination['hydra:member'].some(
        (m: { carrier: string; destinationCountry: string }) =>
          m.carrier === 'dhl' && m.destinationCountry === 'FR',
      ),
    ).toBe(true);
    const fr = (await client().get(`${path}&destinationCountry=fr`).expect(200)).body;
    expect(
      fr['hydra:member'].map((m: { destinationCountry: string }) => m.destinationCountry),
    ).toEqual(['FR']);
  });

  it('carrier analytics refuse bad ranges and other teams', async () => {
    const base = `/workspaces/${tenant.workspaceId}/carrier_performance`;
    await client().get(`${base}?from=2026-13-01`).expect(422);
    await client().get(`${base}?from=2026-05-02&to=2026-05-01`).expect(422);
    await client().get(`${base}?from=2020-01-01&to=2026-01-01`).expect(422);
    await client().get(`${base}?groupBy=month`).expect(422);
    await client().get(`${base}?destinationCountry=France`).expect(422);
    const other = await createTenant(app);
    await api(app, { token: other.token }).get(base).expect(404);
    await client()
      .get(`/workspaces/00000000-0000-4000-8000-000000000000/carrier_performance`)
      .expect(404);
  });

  function insertHistory(history: ReturnType<typeof generateHistory>): Promise<void> {
    return loadHistory(db, historyRows(history, tenant.workspaceId), { due: false });
  }
});

function entriesOf(stats: MemoryStats): Record<string, Record<number, number>> {
  const out: Record<string, Record<number, number>> = {};
  for (const { level, key, vector } of stats.keys()) {
    const { idx, n } = vector.entries();
    if (idx.length > 0) out[`${level}/${key}`] = Object.fromEntries(idx.map((x, i) => [x, n[i]]));
  }
  return out;
}

function sortedEntries(
  m: Map<string, Map<number, number>>,
): Array<[string, Array<[number, number]>]> {
  return [...m]
    .map(([k, v]): [string, Array<[number, number]>] => [
      k,
      [...v].filter(([, n]) => n !== 0).sort((a, b) => a[0] - b[0]),
    ])
    .filter(([, v]) => v.length > 0)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
}
