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
  startFedexFake,
  type FedexFake,
  type FedexFakeScan,
  type FedexFakeShipment,
} from '../fakes/fedex-fake';
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

/** A valid FedEx Ground Economy (SmartPost) number, different on each call. */
function fedexNumber(): string {
  const format = COMPILED_FORMATS.find((f) => f.id === 'fedex-smartpost-22')!;
  return generateTrackingNumber(format, seededRandom(randomInt(0, 2 ** 31)));
}

const PICKED_UP: FedexFakeScan = {
  date: '2026-03-06T12:01:00-07:00',
  eventType: 'PU',
  eventDescription: 'Picked up',
  city: 'DENVER',
  stateOrProvinceCode: 'CO',
};
const AT_USPS: FedexFakeScan = {
  date: '2026-03-09T05:40:00-04:00',
  eventType: 'AX',
  eventDescription: 'At USPS facility',
  derivedStatusCode: 'IT',
  city: 'NEW YORK',
  stateOrProvinceCode: 'NY',
};
const DELIVERED: FedexFakeScan = {
  date: '2026-03-10T09:02:00-04:00',
  eventType: 'DL',
  eventDescription: 'Delivered',
  city: 'BROOKLYN',
  stateOrProvinceCode: 'NY',
};
const HANDED_TO_USPS: FedexFakeShipment = {
  scans: [PICKED_UP, AT_USPS],
  estimatedDelivery: '2026-03-11T00:00:00-04:00',
};

describe('FedEx tracking provider', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let clock: Clock;
  let fake: FedexFake;
  let tenant: Tenant;
  let credentialsId: string;

  const createShipment = async (number: string): Promise<string> => {
    const res = await api(app, { token: tenant.token })
      .json()
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: number,
        originCarrier: 'fedex',
      })
      .expect(201);
    await waitForTracked(app, tenant, res.body.id);
    return res.body.id as string;
  };

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    clock = app.get(Clock);
    fake = await startFedexFake();
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
      'fedex',
      { baseUrl: fake.baseUrl, clientId: fake.clientId, requestsPerSecond: 1000 },
      { clientSecret: fake.clientSecret },
    );
  });

  it('tracks a Ground Economy number: status, checkpoints, ETA, USPS last mile; token renewed once', async () => {
    const number = fedexNumber();
    fake.setShipment(number, HANDED_TO_USPS);
    const tokensBefore = fake.tokensIssued();
    const id = await createShipment(number);

    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'in_transit',
      originCarrier: 'fedex',
      destinationCarrier: 'usps',
      expectedDeliveryDate: '2026-03-11T04:00:00+00:00',
      trackingError: null,
    });
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(checkpoints.map((c) => [c.info, c.status, c.rawStatus, c.location])).toEqual([
      ['Picked up', 'in_transit', 'PU/PU', 'DENVER, CO'],
      ['At USPS facility', 'in_transit', 'AX/IT', 'NEW YORK, NY'],
    ]);
    expect(new Date(checkpoints[0].checkpointDate).toISOString()).toBe('2026-03-06T19:01:00.000Z');
    expect(new Date(checkpoints[1].checkpointDate).toISOString()).toBe('2026-03-09T09:40:00.000Z');

    fake.expireTokens();
    fake.setShipment(number, { ...HANDED_TO_USPS, scans: [PICKED_UP, AT_USPS, DELIVERED] });
    expect((await app.get(TrackingService).trackMany([id])).failures).toEqual([]);
    expect(fake.tokensIssued() - tokensBefore).toBe(2);
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'delivered' });
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(3);
  });

  it('asks 30 numbers per call with one token', async () => {
    const numbers = Array.from({ length: 31 }, () => fedexNumber());
    for (const n of numbers) fake.setShipment(n, HANDED_TO_USPS);
    const ids = await insertShipments(app, tenant.workspaceId, numbers, 'fedex', NOW);
    const tokensBefore = fake.tokensIssued();
    const batchesBefore = fake.trackBatches().length;
    const report = await app.get(TrackingService).trackMany(ids);
    expect(report.failures).toEqual([]);
    const batches = fake.trackBatches().slice(batchesBefore);
    expect(batches.map((b) => b.length).sort()).toEqual([1, 30]);
    expect(batches.flat().sort()).toEqual([...numbers].sort());
    expect(fake.tokensIssued() - tokensBefore).toBe(1);
    expect(await getShipment(app, tenant, ids[30])).toMatchObject({
      trackingStatus: 'in_transit',
      destinationCarrier: 'usps',
    });
  });

  it('keeps what a shipment has when FedEx is down, records the error and retries', async () => {
    const number = fedexNumber();
    fake.setShipment(number, HANDED_TO_USPS);
    const id = await createShipment(number);
    const before = await getShipment(app, tenant, id);

    fake.setShipment(number, { ...HANDED_TO_USPS, scans: [PICKED_UP, AT_USPS, DELIVERED] });
    fake.server.failNext({ status: 500, body: { errors: [{ code: 'INTERNAL.SERVER.ERROR' }] } });
    const report = await app.get(TrackingService).trackMany([id]);
    expect(report.failures.map((f) => f.transient)).toEqual([true]);
    const after = await getShipment(app, tenant, id);
    expect(after).toMatchObject({
      trackingStatus: before.trackingStatus,
      destinationCarrier: 'usps',
      expectedDeliveryDate: before.expectedDeliveryDate,
    });
    expect(after.trackingError).toMatch(/fedex answered HTTP 500/);
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
    const numbers = [fedexNumber(), fedexNumber()];
    const ids = await insertShipments(app, tenant.workspaceId, numbers, 'fedex', NOW);

    const first = await app.get(TrackingService).trackMany(ids);
    expect(first.failures.map((f) => f.transient)).toEqual([false, false]);
    const creds = await api(app, { token: tenant.token })
      .json()
      .get(`/credentials/${credentialsId}`)
      .expect(200);
    expect(creds.body.rejectedAt).not.toBeNull();
    expect(creds.body.rejectionReason).toMatch(/NOT\.AUTHORIZED\.ERROR/);

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
