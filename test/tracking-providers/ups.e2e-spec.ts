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
  startUpsFake,
  upsFakeAlertEvent,
  upsFakePush,
  type UpsFake,
  type UpsFakeActivity,
  type UpsFakePackage,
} from '../fakes/ups-fake';
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
const WEBHOOK_SECRET = 'ups-track-alert-credential';

/** A valid 1Z number (check digit computed), different on each call. */
function upsNumber(): string {
  const format = COMPILED_FORMATS.find((f) => f.id === 'ups-1z')!;
  return generateTrackingNumber(format, seededRandom(randomInt(0, 2 ** 31)));
}

const LABEL: UpsFakeActivity = {
  at: '2026-03-08T09:12:30-05:00',
  type: 'M',
  code: 'MP',
  statusCode: '003',
  description: 'Shipment Ready for UPS',
};
const ON_THE_WAY: UpsFakeActivity = {
  at: '2026-03-08T21:29:01-05:00',
  type: 'I',
  code: 'OR',
  statusCode: '005',
  description: 'On the Way',
  city: 'Hickory',
  stateProvince: 'NC',
};
const OUT_FOR_DELIVERY: UpsFakeActivity = {
  at: '2026-03-10T06:15:19-05:00',
  type: 'I',
  code: 'OT',
  statusCode: '021',
  description: 'Out for Delivery',
  city: 'Charlotte',
  stateProvince: 'NC',
};
const DELIVERED: UpsFakeActivity = {
  at: '2026-03-10T06:50:04-05:00',
  type: 'D',
  code: 'FS',
  statusCode: '011',
  description: 'Delivered',
  city: 'CHARLOTTE',
  stateProvince: 'NC',
};

/** UPS Ground Saver: the last mile is USPS's (alternate USPS PIC number). */
const GROUND_SAVER: UpsFakePackage = {
  activities: [LABEL, ON_THE_WAY],
  scheduledDelivery: '20260311',
  uspsPic: '92419900000033499522966220',
};

describe('UPS tracking provider', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let clock: Clock;
  let fake: UpsFake;
  let tenant: Tenant;
  let credentialsId: string;

  const webhookUrl = () => `${testAppUrl(app)}/public/tracking_webhooks/ups/${credentialsId}`;
  const push = async (credential: string, event: unknown) => {
    const { headers, body } = upsFakePush(credential, event);
    const res = await fetch(webhookUrl(), { method: 'POST', headers, body });
    return { status: res.status, body: await res.text() };
  };
  const createShipment = async (number: string): Promise<string> => {
    const res = await api(app, { token: tenant.token })
      .json()
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: number,
        originCarrier: 'ups',
      })
      .expect(201);
    await waitForTracked(app, tenant, res.body.id);
    return res.body.id as string;
  };

  beforeAll(async () => {
    app = await createTestApp({ listen: true });
    db = app.get(DataSource);
    clock = app.get(Clock);
    fake = await startUpsFake();
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
      'ups',
      { baseUrl: fake.baseUrl, clientId: fake.clientId, requestsPerSecond: 1000 },
      { clientSecret: fake.clientSecret, webhookSecret: WEBHOOK_SECRET },
    );
  });

  it('tracks a 1Z number: status, checkpoints, raw status, ETA, USPS last mile; one token reused', async () => {
    const number = upsNumber();
    fake.setPackage(number, GROUND_SAVER);
    const tokensBefore = fake.tokensIssued();
    const id = await createShipment(number);

    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'in_transit',
      originCarrier: 'ups',
      destinationCarrier: 'usps',
      expectedDeliveryDate: '2026-03-11T00:00:00+00:00',
      trackingError: null,
    });
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(checkpoints.map((c) => [c.info, c.status, c.rawStatus, c.carrier, c.location])).toEqual([
      ['Shipment Ready for UPS', 'pre_transit', 'M/MP/003', 'ups', null],
      ['On the Way', 'in_transit', 'I/OR/005', 'ups', 'Hickory, NC'],
    ]);
    expect(new Date(checkpoints[1].checkpointDate).toISOString()).toBe('2026-03-09T02:29:01.000Z');
    expect(checkpoints[1].countryIso2).toBe('US');
    const [call] = fake.trackCalls().filter((r) => r.path.endsWith(number));
    expect(call.headers.transid).toMatch(/^[0-9a-f]{32}$/);
    expect(call.headers.transactionsrc).toBeTruthy();

    // Later refreshes reuse the token; UPS-side expiry gets exactly one renewal.
    fake.setPackage(number, { ...GROUND_SAVER, activities: [LABEL, ON_THE_WAY, OUT_FOR_DELIVERY] });
    expect((await app.get(TrackingService).trackMany([id])).failures).toEqual([]);
    expect(fake.tokensIssued() - tokensBefore).toBe(1);
    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'delivery_in_progress',
    });
    fake.expireTokens();
    fake.setPackage(number, {
      ...GROUND_SAVER,
      activities: [LABEL, ON_THE_WAY, OUT_FOR_DELIVERY, DELIVERED],
    });
    expect((await app.get(TrackingService).trackMany([id])).failures).toEqual([]);
    expect(fake.tokensIssued() - tokensBefore).toBe(2);
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'delivered' });
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(4);
  });

  it('applies a Track Alert push with the right credential; a wrong or missing one is 401', async () => {
    const number = upsNumber();
    fake.setPackage(number, { activities: [LABEL, ON_THE_WAY], scheduledDelivery: '20260311' });
    const id = await createShipment(number);
    const before = await getCheckpoints(app, tenant, id);

    const event = upsFakeAlertEvent(number, OUT_FOR_DELIVERY, '20260310');
    expect((await push('not-the-credential', event)).status).toBe(401);
    const unsigned = await fetch(webhookUrl(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'UPSPubSubTrackingService' },
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(401);
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'in_transit' });
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(before.length);

    const pushed = await push(WEBHOOK_SECRET, event);
    expect(pushed.status).toBe(200);
    expect(JSON.parse(pushed.body)).toEqual({ received: 1, applied: 1, unknown: [] });
    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'delivery_in_progress',
      expectedDeliveryDate: '2026-03-10T00:00:00+00:00',
    });
    const after = await getCheckpoints(app, tenant, id);
    expect(after.map((c) => c.rawStatus)).toEqual(['M/MP/003', 'I/OR/005', 'I/OT/021']);
    expect(after.slice(0, before.length).map((c) => c.id)).toEqual(before.map((c) => c.id));

    // The same event again, and the same event polled later, are one checkpoint.
    expect((await push(WEBHOOK_SECRET, event)).status).toBe(200);
    fake.setPackage(number, { activities: [LABEL, ON_THE_WAY, OUT_FOR_DELIVERY] });
    await app.get(TrackingService).trackMany([id]);
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(3);
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM outbox_event
        WHERE aggregate_id = $1 AND type = 'shipment.status_changed'`,
      [id],
    );
    expect(n).toBe(2);

    // A number these credentials do not track: 202, nothing written.
    const stranger = upsNumber();
    const unknown = await push(WEBHOOK_SECRET, upsFakeAlertEvent(stranger, ON_THE_WAY));
    expect(unknown.status).toBe(202);
    expect(JSON.parse(unknown.body)).toEqual({ received: 1, applied: 0, unknown: [stranger] });
  });

  it('keeps what a shipment has when UPS is down, records the error and retries', async () => {
    const number = upsNumber();
    fake.setPackage(number, GROUND_SAVER);
    const id = await createShipment(number);
    const before = await getShipment(app, tenant, id);

    fake.setPackage(number, { ...GROUND_SAVER, activities: [LABEL, ON_THE_WAY, DELIVERED] });
    fake.server.failNext({
      status: 503,
      body: { response: { errors: [{ code: '10004', message: 'Service unavailable' }] } },
    });
    const report = await app.get(TrackingService).trackMany([id]);
    expect(report.failures.map((f) => f.transient)).toEqual([true]);
    const after = await getShipment(app, tenant, id);
    expect(after).toMatchObject({
      trackingStatus: before.trackingStatus,
      destinationCarrier: 'usps',
      expectedDeliveryDate: before.expectedDeliveryDate,
    });
    expect(after.trackingError).toMatch(/ups answered HTTP 503/);
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(2);
    const row = await trackingRow(app, id);
    expect(row.next_check_at!.getTime()).toBeGreaterThan(NOW.getTime());

    clock.set(row.next_check_at!);
    await app.get(TrackingRefresher).runUntilIdle();
    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'delivered',
      trackingError: null,
    });
  });

  it('honours 429 Retry-After and asks UPS nothing more in that round', async () => {
    const numbers = [upsNumber(), upsNumber(), upsNumber()];
    for (const n of numbers) fake.setPackage(n, GROUND_SAVER);
    const ids = await insertShipments(app, tenant.workspaceId, numbers, 'ups', NOW);
    await app.get(TrackingService).trackMany([ids[0]]); // a token in the cache
    const calls = fake.server.requests.length;
    fake.rateLimitNext(90);
    const report = await app.get(TrackingService).trackMany(ids);
    expect(fake.server.requests.length - calls).toBe(1);
    expect(report.failures).toHaveLength(3);
    for (const f of report.failures) expect(f.retryAt.getTime()).toBe(NOW.getTime() + 90_000);
    expect((await trackingRow(app, ids[1])).tracking_error).toMatch(/HTTP 429/);
  });

  it('flags rejected credentials, notifies the team once and stops asking', async () => {
    await api(app, { token: tenant.token })
      .json()
      .put(`/credentials/${credentialsId}`, { secrets: { clientSecret: 'revoked-secret-0000' } })
      .expect(200);
    const numbers = [upsNumber(), upsNumber()];
    for (const n of numbers) fake.setPackage(n, GROUND_SAVER);
    const ids = await insertShipments(app, tenant.workspaceId, numbers, 'ups', NOW);

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
    const notes: unknown[] = await db.query(
      `SELECT id FROM notification WHERE user_id = $1 AND tag = 'tracking_credentials_rejected'`,
      [tenant.userId],
    );
    expect(notes).toHaveLength(1);
  });
});
