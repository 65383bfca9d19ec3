import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomInt } from 'node:crypto';
import { DataSource } from 'typeorm';
import { COMPILED_FORMATS } from '../../src/tracking/carriers/carrier-detector';
import {
  generateTrackingNumber,
  seededRandom,
} from '../../src/tracking/carriers/tracking-number-generator';
import { Clock } from '../../src/tracking/clock';
import { TrackingRefresher } from '../../src/tracking/refresh/tracking-refresher';
import { TrackingService } from '../../src/tracking/tracking-service/tracking.service';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import {
  startDhlFake,
  type DhlFake,
  type DhlFakeEvent,
  type DhlFakeShipment,
} from '../fakes/dhl-fake';
import { closeTestApp, createTestApp } from '../support/app';
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

/** A valid 10-digit DHL Express waybill, different on each call. */
function waybill(): string {
  const format = COMPILED_FORMATS.find((f) => f.id === 'dhl-express-10')!;
  return generateTrackingNumber(format, seededRandom(randomInt(0, 2 ** 31)));
}

const PICKED_UP: DhlFakeEvent = {
  timestamp: '2026-03-08T22:41:00+08:00',
  statusCode: 'transit',
  status: 'Shipment picked up',
  addressLocality: 'HONG KONG - HONG KONG',
  countryCode: 'HK',
};
const WITH_COURIER: DhlFakeEvent = {
  timestamp: '2026-03-10T08:12:00+01:00',
  statusCode: 'transit',
  status: 'With delivery courier',
  addressLocality: 'LEIPZIG - GERMANY',
  countryCode: 'DE',
};
const DELIVERED: DhlFakeEvent = {
  timestamp: '2026-03-10T11:30:00+01:00',
  statusCode: 'delivered',
  status: 'Delivered',
  addressLocality: 'LEIPZIG - GERMANY',
  countryCode: 'DE',
};
const EXPRESS: DhlFakeShipment = {
  service: 'express',
  originCountryCode: 'HK',
  destinationCountryCode: 'DE',
  estimatedTimeOfDelivery: '2026-03-10T18:00:00+01:00',
  events: [PICKED_UP, WITH_COURIER],
};

describe('DHL tracking provider', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let clock: Clock;
  let fake: DhlFake;
  let tenant: Tenant;
  let credentialsId: string;

  const createShipment = async (number: string): Promise<string> => {
    const res = await api(app, { token: tenant.token })
      .json()
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: number,
        originCarrier: 'dhl',
      })
      .expect(201);
    await waitForTracked(app, tenant, res.body.id);
    return res.body.id as string;
  };

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    clock = app.get(Clock);
    fake = await startDhlFake();
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
      'dhl',
      { baseUrl: fake.baseUrl, requestsPerSecond: 1000 },
      { apiKey: fake.apiKey },
    );
  });

  it('tracks an Express waybill: status, checkpoints with offsets, countries, ETA', async () => {
    const number = waybill();
    fake.setShipments(number, [EXPRESS]);
    const id = await createShipment(number);

    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'delivery_in_progress',
      originCarrier: 'dhl',
      originCountryIso2: 'HK',
      destinationCountryIso2: 'DE',
      expectedDeliveryDate: '2026-03-10T17:00:00+00:00',
      trackingError: null,
    });
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(
      checkpoints.map((c) => [c.info, c.status, c.rawStatus, c.carrier, c.countryIso2]),
    ).toEqual([
      ['Shipment picked up', 'in_transit', 'transit/Shipment picked up', 'dhl', 'HK'],
      [
        'With delivery courier',
        'delivery_in_progress',
        'transit/With delivery courier',
        'dhl',
        'DE',
      ],
    ]);
    expect(new Date(checkpoints[0].checkpointDate).toISOString()).toBe('2026-03-08T14:41:00.000Z');
    const [call] = fake.trackCalls().filter((r) => r.query.get('trackingNumber') === number);
    expect(call.headers['dhl-api-key']).toBe(fake.apiKey);

    fake.setShipments(number, [{ ...EXPRESS, events: [PICKED_UP, WITH_COURIER, DELIVERED] }]);
    expect((await app.get(TrackingService).trackMany([id])).failures).toEqual([]);
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'delivered' });
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(3);
  });

  it('keeps what a shipment has when DHL is down, records the error and retries', async () => {
    const number = waybill();
    fake.setShipments(number, [EXPRESS]);
    const id = await createShipment(number);
    const before = await getShipment(app, tenant, id);

    fake.setShipments(number, [{ ...EXPRESS, events: [PICKED_UP, WITH_COURIER, DELIVERED] }]);
    fake.server.failNext({ status: 502, body: 'Bad Gateway' });
    const report = await app.get(TrackingService).trackMany([id]);
    expect(report.failures.map((f) => f.transient)).toEqual([true]);
    const after = await getShipment(app, tenant, id);
    expect(after).toMatchObject({
      trackingStatus: before.trackingStatus,
      expectedDeliveryDate: before.expectedDeliveryDate,
    });
    expect(after.trackingError).toMatch(/dhl answered HTTP 502/);
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(2);

    const row = await trackingRow(app, id);
    clock.set(row.next_check_at!);
    await app.get(TrackingRefresher).runUntilIdle();
    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'delivered',
      trackingError: null,
    });
  });

  it('honours the quota 429 Retry-After and asks DHL nothing more in that round', async () => {
    const numbers = [waybill(), waybill(), waybill()];
    for (const n of numbers) fake.setShipments(n, [EXPRESS]);
    const ids = await insertShipments(app, tenant.workspaceId, numbers, 'dhl', NOW);
    const calls = fake.server.requests.length;
    fake.rateLimitNext(600);
    const report = await app.get(TrackingService).trackMany(ids);
    expect(fake.server.requests.length - calls).toBe(1);
    expect(report.failures).toHaveLength(3);
    for (const f of report.failures) expect(f.retryAt.getTime()).toBe(NOW.getTime() + 600_000);
  });

  it('flags a rejected API key, notifies the team once and stops asking', async () => {
    await api(app, { token: tenant.token })
      .json()
      .put(`/credentials/${credentialsId}`, { secrets: { apiKey: 'revoked-key-000000' } })
      .expect(200);
    const ids = await insertShipments(app, tenant.workspaceId, [waybill(), waybill()], 'dhl', NOW);

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
    const notes: unknown[] = await db.query(
      `SELECT id FROM notification WHERE user_id = $1 AND tag = 'tracking_credentials_rejected'`,
      [tenant.userId],
    );
    expect(notes).toHaveLength(1);
  });
});
