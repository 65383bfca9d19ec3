import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomInt } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/tracking/clock';
import { TrackingRefresher } from '../../src/tracking/refresh/tracking-refresher';
import { TrackingService } from '../../src/tracking/tracking-service/tracking.service';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { easyPostDetail, startEasyPostFake, type EasyPostFake } from '../fakes/easypost-fake';
import { closeTestApp, createTestApp, testAppUrl } from '../support/app';
import { api } from '../support/http';
import {
  createProviderCredentials,
  getCheckpoints,
  getShipment,
  insertShipments,
  trackingRow,
  waitForTracked,
} from './provider-e2e-support';

const NOW = new Date('2026-03-10T12:00:00Z');

/** A DHL eCommerce (GM + 18 digits) number; USPS delivers the last mile. */
function dhlEcommerceNumber(): string {
  return `GM${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e9)).padStart(9, '0')}`;
}

function inTransitDetails(): Record<string, unknown>[] {
  return [
    easyPostDetail({
      datetime: '2026-03-02T09:10:00-05:00',
      message: 'Processed',
      status: 'in_transit',
      status_detail: 'arrived_at_facility',
      source: 'DHLeCommerce',
      city: 'ORLANDO',
      state: 'FL',
      zip: '32824',
      country: 'US',
    }),
    easyPostDetail({
      datetime: '2026-03-08T07:30:00-05:00',
      message: 'Arrived at Post Office',
      status: 'in_transit',
      status_detail: 'transferred_to_destination_carrier',
      source: 'USPS',
      city: 'NEW YORK',
      state: 'NY',
      country: 'US',
    }),
  ];
}

function deliveredDetails(): Record<string, unknown>[] {
  return [
    ...inTransitDetails(),
    easyPostDetail({
      datetime: '2026-03-09T14:02:00-05:00',
      message: 'Delivered, In/At Mailbox',
      status: 'delivered',
      status_detail: 'arrived_at_destination',
      source: 'USPS',
      city: 'BROOKLYN',
      state: 'NY',
      country: 'US',
    }),
  ];
}

describe('EasyPost tracking provider', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let clock: Clock;
  let fake: EasyPostFake;
  let tenant: Tenant;
  let credentialsId: string;

  const push = async (delivery: { headers: Record<string, string>; body: string }) => {
    const res = await fetch(
      `${testAppUrl(app)}/public/tracking_webhooks/easypost/${credentialsId}`,
      { method: 'POST', headers: delivery.headers, body: delivery.body },
    );
    return { status: res.status, body: await res.text() };
  };

  const seed = (code: string, status: string, details: Record<string, unknown>[]) =>
    fake.setTracker({
      tracking_code: code,
      carrier: 'DHLeCommerce',
      status,
      est_delivery_date: '2026-03-14T00:00:00Z',
      tracking_details: details,
    });

  const createShipment = async (number: string): Promise<string> => {
    const res = await api(app, { token: tenant.token })
      .json()
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: number,
        originCarrier: 'dhl-ecommerce',
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
    fake = await startEasyPostFake();
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
      'easypost',
      { baseUrl: fake.baseUrl, requestsPerSecond: 1000 },
      { apiKey: fake.apiKey, webhookSecret: fake.webhookSecret },
    );
  });

  it('tracks a real-format number: status, checkpoints, raw status, ETA, last-mile carrier', async () => {
    const number = dhlEcommerceNumber();
    seed(number, 'in_transit', inTransitDetails());
    const id = await createShipment(number);

    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'in_transit',
      originCarrier: 'dhl-ecommerce',
      destinationCarrier: 'usps',
      expectedDeliveryDate: '2026-03-14T00:00:00+00:00',
      trackingError: null,
    });
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(checkpoints.map((c) => [c.info, c.status, c.rawStatus, c.carrier, c.rel])).toEqual([
      ['Processed', 'in_transit', 'in_transit/arrived_at_facility', 'dhl-ecommerce', 'origin'],
      [
        'Arrived at Post Office',
        'in_transit',
        'in_transit/transferred_to_destination_carrier',
        'usps',
        'destination',
      ],
    ]);
    expect(checkpoints[0]).toMatchObject({ location: 'ORLANDO, FL, 32824', countryIso2: 'US' });
    expect(new Date(checkpoints[0].checkpointDate).toISOString()).toBe('2026-03-02T14:10:00.000Z');
    const creates = fake.server
      .calls('POST', '/v2/trackers')
      .filter((r) => JSON.stringify(r.body).includes(number));
    expect(creates.map((r) => r.body)).toEqual([
      { tracker: { tracking_code: number, carrier: 'DHLeCommerce' } },
    ]);

    seed(number, 'delivered', deliveredDetails());
    clock.set(new Date(NOW.getTime() + 25 * 3_600_000));
    await app.get(TrackingRefresher).runUntilIdle();
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'delivered' });
  });

  it('applies a signed Event; a bad signature is 401 and changes nothing', async () => {
    const number = dhlEcommerceNumber();
    seed(number, 'in_transit', inTransitDetails());
    const id = await createShipment(number);
    const before = await getCheckpoints(app, tenant, id);

    const tracker = seed(number, 'delivered', deliveredDetails());
    expect((await push(fake.signedDelivery(tracker, { secret: 'not-the-secret' }))).status).toBe(
      401,
    );
    const unsigned = fake.signedDelivery(tracker);
    delete unsigned.headers['X-Hmac-Signature'];
    expect((await push(unsigned)).status).toBe(401);
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'in_transit' });
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(before.length);

    const pushed = await push(fake.signedDelivery(tracker));
    expect(pushed.status).toBe(200);
    expect(JSON.parse(pushed.body)).toEqual({ received: 1, applied: 1, unknown: [] });
    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'delivered',
      destinationCarrier: 'usps',
    });
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(checkpoints).toHaveLength(before.length + 1);
    expect(checkpoints.slice(0, before.length).map((c) => c.id)).toEqual(before.map((c) => c.id));
  });

  it('keeps what a shipment has when EasyPost is down, records the error and retries', async () => {
    const number = dhlEcommerceNumber();
    seed(number, 'in_transit', inTransitDetails());
    const id = await createShipment(number);
    const before = await getShipment(app, tenant, id);
    const checkpoints = await getCheckpoints(app, tenant, id);

    seed(number, 'delivered', deliveredDetails());
    fake.server.failNext({ status: 502, body: 'Bad Gateway' });
    const report = await app.get(TrackingService).trackMany([id]);
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0].transient).toBe(true);
    const after = await getShipment(app, tenant, id);
    expect(after).toMatchObject({
      trackingStatus: before.trackingStatus,
      destinationCarrier: 'usps',
      expectedDeliveryDate: before.expectedDeliveryDate,
    });
    expect(after.trackingError).toMatch(/easypost answered HTTP 502/);
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
      .put(`/credentials/${credentialsId}`, { secrets: { apiKey: 'EZTKrevoked000000' } })
      .expect(200);
    const ids = await insertShipments(
      app,
      tenant.workspaceId,
      [dhlEcommerceNumber(), dhlEcommerceNumber()],
      'dhl-ecommerce',
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
