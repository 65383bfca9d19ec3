import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/tracking/clock';
import { TrackingRefresher } from '../../src/tracking/refresh/tracking-refresher';
import { TrackingService } from '../../src/tracking/tracking-service/tracking.service';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { ship24Event, startShip24Fake, type Ship24Fake } from '../fakes/ship24-fake';
import { closeTestApp, createTestApp, testAppUrl } from '../support/app';
import { api } from '../support/http';
import {
  createProviderCredentials,
  getCheckpoints,
  getShipment,
  insertShipments,
  s10Number,
  trackingRow,
  waitForTracked,
} from './provider-e2e-support';

const NOW = new Date('2026-03-10T12:00:00Z');

/** China Post hands the parcel to USPS (Ship24 courier `us-post`); events newest first. */
function inTransitEvents(number: string): Record<string, unknown>[] {
  return [
    ship24Event({
      trackingNumber: number,
      occurrenceDatetime: '2026-03-08T07:30:00-05:00',
      status: 'Arrived at USPS Regional Facility',
      statusMilestone: 'in_transit',
      location: 'NEW YORK, NY, US',
      courierCode: 'us-post',
    }),
    ship24Event({
      trackingNumber: number,
      occurrenceDatetime: '2026-03-02T09:10:00+08:00',
      status: 'Acceptance',
      statusMilestone: 'in_transit',
      statusCode: 'transit_pickup',
      location: 'Shenzhen, China',
      courierCode: 'china-post',
    }),
  ];
}

function deliveredEvents(number: string): Record<string, unknown>[] {
  return [
    ship24Event({
      trackingNumber: number,
      occurrenceDatetime: '2026-03-09T14:02:00-05:00',
      status: 'Delivered, In/At Mailbox',
      statusMilestone: 'delivered',
      statusCode: 'delivery_delivered',
      location: 'BROOKLYN, NY, US',
      courierCode: 'us-post',
    }),
    ...inTransitEvents(number),
  ];
}

const SHIPMENT = {
  originCountryCode: 'CN',
  destinationCountryCode: 'US',
  delivery: {
    estimatedDeliveryDate: null,
    courierEstimatedDeliveryDate: { from: '2026-03-13', to: '2026-03-14' },
    service: null,
    signedBy: null,
  },
};

describe('Ship24 tracking provider', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let clock: Clock;
  let fake: Ship24Fake;
  let tenant: Tenant;
  let credentialsId: string;

  const push = async (delivery: { headers: Record<string, string>; body: string }) => {
    const res = await fetch(`${testAppUrl(app)}/public/tracking_webhooks/ship24/${credentialsId}`, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
    });
    return { status: res.status, body: await res.text() };
  };

  const seed = (number: string, events: Record<string, unknown>[]) =>
    fake.setTracking(number, { courierCode: ['china-post'], shipment: SHIPMENT, events });

  const createShipment = async (number: string): Promise<string> => {
    const res = await api(app, { token: tenant.token })
      .json()
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: number,
        originCarrier: 'china-post',
      })
      .expect(201);
    // Tracked by its `tracking.track` job right after the create, not inside it.
    await waitForTracked(app, tenant, res.body.id);
    return res.body.id as string;
  };

  beforeAll(async () => {
    app = await createTestApp({ listen: true });
    db = app.get(DataSource);
    clock = app.get(Clock);
    fake = await startShip24Fake();
  });

  afterAll(async () => {
    clock?.reset();
    await fake?.close();
    await closeTestApp(app);
  });

  beforeEach(async () => {
    clock.set(NOW);
    tenant = await createTenant(app);
    credentialsId = await createProviderCredentials(
      app,
      tenant,
      'ship24',
      { baseUrl: fake.baseUrl, requestsPerSecond: 1000 },
      { apiKey: fake.apiKey, webhookSecret: fake.webhookSecret },
    );
  });

  it('tracks a real-format number: status, checkpoints, raw status, ETA, last-mile carrier', async () => {
    const number = s10Number('CN');
    seed(number, inTransitEvents(number));
    const id = await createShipment(number);

    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'in_transit',
      originCarrier: 'china-post',
      destinationCarrier: 'usps',
      originCountryIso2: 'CN',
      destinationCountryIso2: 'US',
      expectedDeliveryDate: '2026-03-14T00:00:00+00:00',
      trackingError: null,
    });
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(checkpoints.map((c) => [c.info, c.status, c.rawStatus, c.carrier, c.rel])).toEqual([
      ['Acceptance', 'in_transit', 'in_transit/transit_pickup', 'china-post', 'origin'],
      ['Arrived at USPS Regional Facility', 'in_transit', 'in_transit', 'usps', 'destination'],
    ]);
    expect(checkpoints[0]).toMatchObject({ location: 'Shenzhen, China', countryIso2: 'CN' });
    expect(new Date(checkpoints[0].checkpointDate).toISOString()).toBe('2026-03-02T01:10:00.000Z');
    const bulks = fake.server
      .calls('POST', '/public/v1/trackers/bulk')
      .filter((r) => JSON.stringify(r.body).includes(number));
    expect(bulks.map((r) => r.body)).toEqual([[{ trackingNumber: number }]]);
    expect(bulks[0].headers.authorization).toBe(`Bearer ${fake.apiKey}`);

    // The safety-net poll a day later sees the delivery.
    seed(number, deliveredEvents(number));
    clock.set(new Date(NOW.getTime() + 25 * 3_600_000));
    await app.get(TrackingRefresher).runUntilIdle();
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'delivered' });
  });

  it('registers 100 numbers per bulk request', async () => {
    const numbers = Array.from({ length: 101 }, () => s10Number('CN'));
    for (const n of numbers) seed(n, inTransitEvents(n));
    const ids = await insertShipments(app, tenant.workspaceId, numbers, 'china-post', NOW);
    const bulkSizes = () =>
      fake.server
        .calls('POST', '/public/v1/trackers/bulk')
        .filter((r) =>
          (r.body as Array<{ trackingNumber: string }>).some((i) =>
            numbers.includes(i.trackingNumber),
          ),
        )
        .map((r) => (r.body as unknown[]).length);
    const round = await app.get(TrackingService).trackMany(ids);
    expect(round.failures).toEqual([]);
    // One full bulk; the partial last batch waits a minute for other rounds to fill it.
    expect(bulkSizes()).toEqual([100]);
    const waiting: Array<{ id: string }> = await db.query(
      `SELECT id FROM shipment
        WHERE id = ANY($1::uuid[]) AND next_check_at = $2 AND tracking_error IS NULL`,
      [ids, new Date(NOW.getTime() + 60_000)],
    );
    expect(waiting).toHaveLength(1);
    const [leftover] = waiting.map((w) => w.id);
    const [{ n: trackedInRound }] = await db.query(
      `SELECT count(*)::int AS n FROM shipment
        WHERE id = ANY($1::uuid[]) AND tracking_status = 'in_transit'`,
      [ids.filter((id) => id !== leftover)],
    );
    expect(trackedInRound).toBe(100);
    expect(await getShipment(app, tenant, leftover)).toMatchObject({ trackingStatus: null });

    // A minute later the leftover is registered (no other round joined it) and tracked.
    clock.set(new Date(NOW.getTime() + 60_000));
    await app.get(TrackingRefresher).runUntilIdle();
    expect(bulkSizes()).toEqual([100, 1]);
    expect(await getShipment(app, tenant, leftover)).toMatchObject({
      trackingStatus: 'in_transit',
    });
  });

  it('applies a push with the webhook secret; a wrong one is 401 and changes nothing', async () => {
    const number = s10Number('CN');
    seed(number, inTransitEvents(number));
    const id = await createShipment(number);
    const before = await getCheckpoints(app, tenant, id);

    // Ship24 pushes only the events new since its last delivery.
    const tracking = seed(number, deliveredEvents(number).slice(0, 1));
    expect((await push(fake.signedDelivery([tracking], { secret: fake.apiKey }))).status).toBe(401);
    const anonymous = fake.signedDelivery([tracking]);
    delete anonymous.headers.Authorization;
    expect((await push(anonymous)).status).toBe(401);
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'in_transit' });
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(before.length);

    const pushed = await push(fake.signedDelivery([tracking]));
    expect(pushed.status).toBe(200);
    expect(JSON.parse(pushed.body)).toEqual({ received: 1, applied: 1, unknown: [] });
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'delivered' });
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(checkpoints).toHaveLength(before.length + 1);
    expect(checkpoints.slice(0, before.length).map((c) => c.id)).toEqual(before.map((c) => c.id));
  });

  it('keeps what a shipment has when Ship24 is down, records the error and retries', async () => {
    const number = s10Number('CN');
    seed(number, inTransitEvents(number));
    const id = await createShipment(number);
    const before = await getShipment(app, tenant, id);
    const checkpoints = await getCheckpoints(app, tenant, id);

    seed(number, deliveredEvents(number));
    fake.server.failNext({ status: 503, body: 'Service Unavailable' });
    const report = await app.get(TrackingService).trackMany([id]);
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0].transient).toBe(true);
    const after = await getShipment(app, tenant, id);
    expect(after).toMatchObject({
      trackingStatus: before.trackingStatus,
      destinationCarrier: 'usps',
      expectedDeliveryDate: before.expectedDeliveryDate,
    });
    expect(after.trackingError).toMatch(/ship24 answered HTTP 503/);
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(checkpoints.length);

    const row = await trackingRow(app, id);
    expect(row.next_check_at!.getTime()).toBeGreaterThan(NOW.getTime());
    clock.set(row.next_check_at!);
    await app.get(TrackingRefresher).runUntilIdle();
    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'delivered',
      trackingError: null,
    });
  });

  it('flags rejected credentials, notifies the team once and stops asking', async () => {
    await api(app, { token: tenant.token })
      .json()
      .put(`/credentials/${credentialsId}`, { secrets: { apiKey: 'apik_revoked000000' } })
      .expect(200);
    const ids = await insertShipments(
      app,
      tenant.workspaceId,
      [s10Number('CN'), s10Number('CN')],
      'china-post',
      NOW,
    );
    const first = await app.get(TrackingService).trackMany(ids);
    expect(first.failures.map((f) => f.transient)).toEqual([false, false]);
    const creds = await api(app, { token: tenant.token })
      .json()
      .get(`/credentials/${credentialsId}`)
      .expect(200);
    expect(creds.body.rejectedAt).not.toBeNull();
    expect(creds.body.rejectionReason).toMatch(/HTTP 401/);

    const calls = fake.server.requests.length;
    await app.get(TrackingService).trackMany(ids);
    expect(fake.server.requests.length).toBe(calls);
    const notes: Array<{ data: string[] }> = await db.query(
      `SELECT data FROM notification WHERE user_id = $1 AND tag = 'tracking_credentials_rejected'`,
      [tenant.userId],
    );
    expect(notes).toHaveLength(1);
  });
});
