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
  startUspsFake,
  type UspsFake,
  type UspsFakeEvent,
  type UspsFakePackage,
} from '../fakes/usps-fake';
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

/** A valid 20-digit USPS number, different on each call. */
function uspsNumber(): string {
  const format = COMPILED_FORMATS.find((f) => f.id === 'usps-20')!;
  return generateTrackingNumber(format, seededRandom(randomInt(0, 2 ** 31)));
}

const ACCEPTED: UspsFakeEvent = {
  eventTimestamp: '2026-03-08T07:31:00Z',
  eventType: 'USPS in possession of item',
  eventCode: '03',
  eventCity: 'SEATTLE',
  eventState: 'WA',
  eventZIP: '98101',
};
const OUT_FOR_DELIVERY: UspsFakeEvent = {
  eventTimestamp: '2026-03-10T07:10:00-07:00',
  eventType: 'Out for Delivery',
  eventCode: 'OF',
  eventCity: 'PALO ALTO',
  eventState: 'CA',
  eventZIP: '94301',
};
const DELIVERED: UspsFakeEvent = {
  eventTimestamp: '2026-03-10T13:02:00-07:00',
  eventType: 'Delivered, In/At Mailbox',
  eventCode: '01',
  eventCity: 'PALO ALTO',
  eventState: 'CA',
  eventZIP: '94301',
};
const ON_ITS_WAY: UspsFakePackage = {
  statusCategory: 'Out for Delivery',
  expectedDeliveryDate: '2026-03-10',
  events: [ACCEPTED, OUT_FOR_DELIVERY],
};

describe('USPS tracking provider', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let clock: Clock;
  let fake: UspsFake;
  let tenant: Tenant;
  let credentialsId: string;

  const createShipment = async (number: string): Promise<string> => {
    const res = await api(app, { token: tenant.token })
      .json()
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: number,
        originCarrier: 'usps',
      })
      .expect(201);
    await waitForTracked(app, tenant, res.body.id);
    return res.body.id as string;
  };

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    clock = app.get(Clock);
    fake = await startUspsFake();
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
      'usps',
      { baseUrl: fake.baseUrl, clientId: fake.clientId, requestsPerSecond: 1000 },
      { clientSecret: fake.clientSecret },
    );
  });

  it('tracks a USPS number: status, checkpoints, ETA; one token reused, renewed once expired', async () => {
    const number = uspsNumber();
    fake.setPackage(number, ON_ITS_WAY);
    const tokensBefore = fake.tokensIssued();
    const id = await createShipment(number);

    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'delivery_in_progress',
      originCarrier: 'usps',
      expectedDeliveryDate: '2026-03-10T00:00:00+00:00',
      trackingError: null,
    });
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(checkpoints.map((c) => [c.info, c.status, c.rawStatus, c.location])).toEqual([
      [
        'USPS in possession of item',
        'in_transit',
        '03 USPS in possession of item',
        'SEATTLE, WA 98101',
      ],
      ['Out for Delivery', 'delivery_in_progress', 'OF Out for Delivery', 'PALO ALTO, CA 94301'],
    ]);
    expect(new Date(checkpoints[1].checkpointDate).toISOString()).toBe('2026-03-10T14:10:00.000Z');
    expect(checkpoints[1].countryIso2).toBe('US');

    expect((await app.get(TrackingService).trackMany([id])).failures).toEqual([]);
    expect(fake.tokensIssued() - tokensBefore).toBe(1);
    fake.expireTokens();
    fake.setPackage(number, {
      ...ON_ITS_WAY,
      statusCategory: 'Delivered',
      events: [ACCEPTED, OUT_FOR_DELIVERY, DELIVERED],
    });
    expect((await app.get(TrackingService).trackMany([id])).failures).toEqual([]);
    expect(fake.tokensIssued() - tokensBefore).toBe(2);
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'delivered' });
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(3);
  });

  it('keeps what a shipment has when USPS is down, records the error and retries', async () => {
    const number = uspsNumber();
    fake.setPackage(number, ON_ITS_WAY);
    const id = await createShipment(number);
    const before = await getShipment(app, tenant, id);

    fake.setPackage(number, { ...ON_ITS_WAY, events: [ACCEPTED, OUT_FOR_DELIVERY, DELIVERED] });
    fake.rateLimitNext(45);
    const report = await app.get(TrackingService).trackMany([id]);
    expect(report.failures.map((f) => [f.transient, f.retryAt.getTime()])).toEqual([
      [true, NOW.getTime() + 45_000],
    ]);
    const after = await getShipment(app, tenant, id);
    expect(after).toMatchObject({
      trackingStatus: before.trackingStatus,
      expectedDeliveryDate: before.expectedDeliveryDate,
    });
    expect(after.trackingError).toMatch(/usps answered HTTP 429/);
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(2);

    const row = await trackingRow(app, id);
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
      .put(`/credentials/${credentialsId}`, { secrets: { clientSecret: 'revoked-secret-0000' } })
      .expect(200);
    const ids = await insertShipments(
      app,
      tenant.workspaceId,
      [uspsNumber(), uspsNumber()],
      'usps',
      NOW,
    );

    const first = await app.get(TrackingService).trackMany(ids);
    expect(first.failures.map((f) => f.transient)).toEqual([false, false]);
    const creds = await api(app, { token: tenant.token })
      .json()
      .get(`/credentials/${credentialsId}`)
      .expect(200);
    expect(creds.body.rejectedAt).not.toBeNull();
    expect(creds.body.rejectionReason).toMatch(/invalid_client/);

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
