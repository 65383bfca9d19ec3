import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/tracking/clock';
import { TrackingRefresher } from '../../src/tracking/refresh/tracking-refresher';
import { TrackingService } from '../../src/tracking/tracking-service/tracking.service';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { startAfterShipFake, type AfterShipFake } from '../fakes/aftership-fake';
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
type Fields = Parameters<AfterShipFake['setTracking']>[0];

/** China Post hands the parcel to USPS for the last mile (2025-01 tracking fields). */
function inTransit(number: string): Fields {
  return {
    tracking_number: number,
    slug: 'china-post',
    tag: 'InTransit',
    subtag: 'InTransit_003',
    origin_country_region: 'CHN',
    destination_country_region: 'USA',
    last_mile: { tracking_number: '9400111899562537624326', slug: 'usps' },
    courier_estimated_delivery_date: { estimated_delivery_date: '2026-03-14' },
    checkpoints: [
      {
        slug: 'china-post',
        checkpoint_time: '2026-03-02T09:10:00+08:00',
        message: 'Acceptance',
        location: 'SHENZHEN',
        country_region: 'CHN',
        tag: 'InTransit',
        subtag: 'InTransit_002',
      },
      {
        slug: 'usps',
        checkpoint_time: '2026-03-08T07:30:00-05:00',
        message: 'Arrived at USPS Regional Facility',
        location: 'NEW YORK NY',
        country_region: 'USA',
        tag: 'InTransit',
        subtag: 'InTransit_003',
      },
    ],
  };
}

function delivered(number: string): Fields {
  const t = inTransit(number);
  return {
    ...t,
    tag: 'Delivered',
    subtag: 'Delivered_001',
    checkpoints: [
      ...(t.checkpoints as unknown[]),
      {
        slug: 'usps',
        checkpoint_time: '2026-03-09T14:02:00-05:00',
        message: 'Delivered, In/At Mailbox',
        location: 'BROOKLYN NY',
        country_region: 'USA',
        tag: 'Delivered',
        subtag: 'Delivered_001',
      },
    ],
  };
}

describe('AfterShip tracking provider', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let clock: Clock;
  let fake: AfterShipFake;
  let tenant: Tenant;
  let credentialsId: string;

  const push = async (delivery: { headers: Record<string, string>; body: string }) => {
    const res = await fetch(
      `${testAppUrl(app)}/public/tracking_webhooks/aftership/${credentialsId}`,
      { method: 'POST', headers: delivery.headers, body: delivery.body },
    );
    return { status: res.status, body: await res.text() };
  };

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
    fake = await startAfterShipFake();
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
      'aftership',
      { baseUrl: fake.baseUrl, requestsPerSecond: 1000 },
      { apiKey: fake.apiKey, webhookSecret: fake.webhookSecret },
    );
  });

  it('tracks a real-format number: status, checkpoints, raw status, ETA, last-mile carrier', async () => {
    const number = s10Number('CN');
    fake.setTracking(inTransit(number));
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
      ['Acceptance', 'in_transit', 'InTransit/InTransit_002', 'china-post', 'origin'],
      [
        'Arrived at USPS Regional Facility',
        'in_transit',
        'InTransit/InTransit_003',
        'usps',
        'destination',
      ],
    ]);
    expect(checkpoints[0]).toMatchObject({ location: 'SHENZHEN', countryIso2: 'CN' });
    expect(new Date(checkpoints[0].checkpointDate).toISOString()).toBe('2026-03-02T01:10:00.000Z');
    // Registered once, with the courier's slug, in a flat 2025-01 body.
    const creates = fake.server
      .calls('POST', '/tracking/2025-01/trackings')
      .filter((r) => (r.body as { tracking_number?: string }).tracking_number === number);
    expect(creates.map((r) => r.body)).toEqual([{ tracking_number: number, slug: 'china-post' }]);
    expect(creates[0].headers['as-api-key']).toBe(fake.apiKey);

    // The safety-net poll a day later: delivered, completed at AfterShip.
    fake.setTracking(delivered(number));
    clock.set(new Date(NOW.getTime() + 25 * 3_600_000));
    await app.get(TrackingRefresher).runUntilIdle();
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'delivered' });
    expect(fake.findTracking(number, 'china-post')?.active).toBe(false);
  });

  it('applies a signed push like a refresh; a bad signature is 401 and changes nothing', async () => {
    const number = s10Number('CN');
    const tracking = fake.setTracking(inTransit(number));
    const id = await createShipment(number);
    const before = await getCheckpoints(app, tenant, id);

    const done = fake.setTracking({ ...delivered(number), id: tracking.id });
    expect((await push(fake.signedDelivery(done, { secret: 'not-the-secret' }))).status).toBe(401);
    const unsigned = fake.signedDelivery(done);
    delete unsigned.headers['aftership-hmac-sha256'];
    expect((await push(unsigned)).status).toBe(401);
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'in_transit' });
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(before.length);

    const pushed = await push(fake.signedDelivery(done));
    expect(pushed.status).toBe(200);
    expect(JSON.parse(pushed.body)).toEqual({ received: 1, applied: 1, unknown: [] });
    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'delivered',
      destinationCarrier: 'usps',
    });
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(checkpoints).toHaveLength(before.length + 1);
    expect(checkpoints.slice(0, before.length).map((c) => c.id)).toEqual(before.map((c) => c.id));

    // An unknown number is 202 and writes nothing.
    const stranger = fake.setTracking(inTransit(s10Number('CN')));
    expect((await push(fake.signedDelivery(stranger))).status).toBe(202);
  });

  it('keeps what a shipment has when AfterShip is down, records the error and retries', async () => {
    const number = s10Number('CN');
    fake.setTracking(inTransit(number));
    const id = await createShipment(number);
    const before = await getShipment(app, tenant, id);
    const checkpoints = await getCheckpoints(app, tenant, id);

    fake.setTracking(delivered(number));
    fake.server.failNext({ status: 503, body: { meta: { code: 503 }, data: {} } });
    const report = await app.get(TrackingService).trackMany([id]);
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0].transient).toBe(true);
    const after = await getShipment(app, tenant, id);
    expect(after).toMatchObject({
      trackingStatus: before.trackingStatus,
      destinationCarrier: 'usps',
      expectedDeliveryDate: before.expectedDeliveryDate,
    });
    expect(after.trackingError).toMatch(/aftership answered HTTP 503/);
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

  it('honours the X-RateLimit-Reset of a 429', async () => {
    const number = s10Number('CN');
    fake.setTracking(inTransit(number));
    const [id] = await insertShipments(app, tenant.workspaceId, [number], 'china-post', NOW);
    fake.rateLimitNext(30);
    const report = await app.get(TrackingService).trackMany([id]);
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0].transient).toBe(true);
    const delay = report.failures[0].retryAt.getTime() - NOW.getTime();
    expect(delay).toBeGreaterThanOrEqual(1000);
    expect(delay).toBeLessThanOrEqual(31_000);
    expect((await trackingRow(app, id)).tracking_error).toMatch(/429/);
  });

  it('flags rejected credentials, notifies the team once and stops asking', async () => {
    await api(app, { token: tenant.token })
      .json()
      .put(`/credentials/${credentialsId}`, { secrets: { apiKey: 'revoked-key-000000' } })
      .expect(200);
    const numbers = [s10Number('CN'), s10Number('CN')];
    const ids = await insertShipments(app, tenant.workspaceId, numbers, 'china-post', NOW);

    const first = await app.get(TrackingService).trackMany(ids);
    expect(first.failures.map((f) => f.transient)).toEqual([false, false]);
    const creds = await api(app, { token: tenant.token })
      .json()
      .get(`/credentials/${credentialsId}`)
      .expect(200);
    expect(creds.body.rejectedAt).not.toBeNull();
    expect(creds.body.rejectionReason).toMatch(/HTTP 401/);
    expect((await getShipment(app, tenant, ids[0])).trackingError).toMatch(
      /rejected the credentials/,
    );

    const calls = fake.server.requests.length;
    await app.get(TrackingService).trackMany(ids);
    expect(fake.server.requests.length).toBe(calls);
    const notes: Array<{ data: string[] }> = await db.query(
      `SELECT data FROM notification WHERE user_id = $1 AND tag = 'tracking_credentials_rejected'`,
      [tenant.userId],
    );
    expect(notes).toHaveLength(1);
    expect(notes[0].data).toEqual([`/credentials/${credentialsId}`]);
  });
});
