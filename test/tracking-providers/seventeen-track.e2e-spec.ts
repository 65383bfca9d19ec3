import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/tracking/clock';
import { TrackingRefresher } from '../../src/tracking/refresh/tracking-refresher';
import { TrackingService } from '../../src/tracking/tracking-service/tracking.service';
import { testTrackingNumber } from '../factories/commerce.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import {
  startSeventeenTrackFake,
  type FakeSeventeenTrackJourney,
  type SeventeenTrackFake,
} from '../fakes/seventeen-track-fake';
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
const HOUR = 3_600_000;
const CHINA_POST = 3011;
const USPS = 21051;

/** China Post hands the parcel to USPS for the last mile; ETA given. */
function inTransitJourney(): FakeSeventeenTrackJourney {
  return {
    carrier: CHINA_POST,
    status: 'InTransit',
    subStatus: 'InTransit_Arrival',
    origin: 'CN',
    destination: 'US',
    eta: '2026-03-14T18:00:00Z',
    localKey: USPS,
    events: [
      {
        time: '2026-03-02T09:10:00+08:00',
        description: 'Acceptance',
        location: 'SHENZHEN',
        country: 'CN',
        stage: 'PickedUp',
        subStatus: 'InTransit_PickedUp',
      },
      {
        time: '2026-03-04T22:00:00+08:00',
        description: 'Departure from outward office of exchange',
        location: 'GUANGZHOU',
        country: 'CN',
        stage: 'Departure',
        subStatus: 'InTransit_Departure',
      },
      {
        time: '2026-03-08T07:30:00-05:00',
        description: 'Arrived at USPS Regional Facility',
        location: 'NEW YORK NY',
        country: 'US',
        stage: 'Arrival',
        subStatus: 'InTransit_Arrival',
        providerKey: USPS,
      },
    ],
  };
}

function deliveredJourney(): FakeSeventeenTrackJourney {
  const j = inTransitJourney();
  return {
    ...j,
    status: 'Delivered',
    subStatus: 'Delivered_Other',
    events: [
      ...j.events,
      {
        time: '2026-03-09T14:02:00-05:00',
        description: 'Delivered, In/At Mailbox',
        location: 'BROOKLYN NY',
        country: 'US',
        stage: 'Delivered',
        subStatus: 'Delivered_Other',
        providerKey: USPS,
      },
    ],
  };
}

describe('17TRACK tracking provider', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let clock: Clock;
  let fake: SeventeenTrackFake;
  let tenant: Tenant;
  let credentialsId: string;

  const webhookUrl = (id = credentialsId, provider = '17track') =>
    `${testAppUrl(app)}/public/tracking_webhooks/${provider}/${id}`;

  const createShipment = async (number: string): Promise<string> => {
    const res = await api(app, { token: tenant.token })
      .json()
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: number,
        originCarrier: 'china-post',
      })
      .expect(201);
    await waitForTracked(app, tenant, res.body.id);
    return res.body.id as string;
  };

  const callsFor = (endpoint: string, number: string) =>
    fake
      .calls(endpoint)
      .filter((r) => (r.body as Array<{ number: string }>).some((i) => i.number === number)).length;
  const registerCallsFor = (number: string) => callsFor('register', number);

  beforeAll(async () => {
    app = await createTestApp({ listen: true });
    db = app.get(DataSource);
    clock = app.get(Clock);
    fake = await startSeventeenTrackFake();
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
      '17track',
      { baseUrl: fake.apiUrl, requestsPerSecond: 1000 },
      { apiKey: fake.apiKey },
    );
  });

  it('tracks a real-format number: status, checkpoints, raw status, ETA, last-mile carrier', async () => {
    const number = s10Number('CN');
    fake.setJourney(number, inTransitJourney());
    const id = await createShipment(number);

    const shipment = await getShipment(app, tenant, id);
    expect(shipment).toMatchObject({
      trackingStatus: 'in_transit',
      originCarrier: 'china-post',
      destinationCarrier: 'usps',
      originCountryIso2: 'CN',
      destinationCountryIso2: 'US',
      expectedDeliveryDate: '2026-03-14T18:00:00+00:00',
      trackingError: null,
    });
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(checkpoints.map((c) => [c.info, c.status, c.rawStatus, c.carrier, c.rel])).toEqual([
      ['Acceptance', 'in_transit', 'PickedUp/InTransit_PickedUp', 'china-post', 'origin'],
      [
        'Departure from outward office of exchange',
        'in_transit',
        'Departure/InTransit_Departure',
        'china-post',
        'origin',
      ],
      [
        'Arrived at USPS Regional Facility',
        'in_transit',
        'Arrival/InTransit_Arrival',
        'usps',
        'destination',
      ],
    ]);
    expect(checkpoints[0]).toMatchObject({ location: 'SHENZHEN', countryIso2: 'CN' });
    expect(new Date(checkpoints[0].checkpointDate).toISOString()).toBe('2026-03-02T01:10:00.000Z');
    expect(registerCallsFor(number)).toBe(1);
    const [register] = fake.calls('register').slice(-1);
    expect(register.headers['17token']).toBe(fake.apiKey);
    expect(register.body).toEqual([{ number, carrier: CHINA_POST }]);

    // Registered numbers are kept current by push: the next poll is a day away (safety net).
    const { next_check_at } = await trackingRow(app, id);
    expect(next_check_at!.getTime()).toBeGreaterThanOrEqual(NOW.getTime() + 24 * HOUR);
    await app.get(TrackingRefresher).runUntilIdle();
    expect(callsFor('gettrackinfo', number)).toBe(1);

    // The safety-net poll: delivered, stopped at 17TRACK, never registered again.
    fake.setJourney(number, deliveredJourney());
    clock.set(new Date(NOW.getTime() + 25 * HOUR));
    await app.get(TrackingRefresher).runUntilIdle();
    expect(callsFor('gettrackinfo', number)).toBe(2);
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'delivered' });
    expect(registerCallsFor(number)).toBe(1);
    expect(fake.registered.get(number)).toEqual({ carrier: CHINA_POST, stopped: true });
    expect((await trackingRow(app, id)).next_check_at).toBeNull();
    const events: Array<{ payload: { trackingStatus: string } }> = await db.query(
      `SELECT payload FROM outbox_event WHERE aggregate_id = $1 AND type = 'shipment.status_changed'
        ORDER BY created_at`,
      [id],
    );
    expect(events.map((e) => e.payload.trackingStatus)).toEqual(['in_transit', 'delivered']);
  });

  it('applies a signed push like a refresh; a bad or missing signature is 401 and writes nothing', async () => {
    const number = s10Number('CN');
    fake.setJourney(number, inTransitJourney());
    const id = await createShipment(number);
    const before = await getCheckpoints(app, tenant, id);

    fake.setJourney(number, deliveredJourney());
    const forged = await fake.push(webhookUrl(), number, { signWith: 'not-the-key' });
    expect(forged.status).toBe(401);
    const unsigned = await fake.push(webhookUrl(), number, { signWith: null });
    expect(unsigned.status).toBe(401);
    expect(await getShipment(app, tenant, id)).toMatchObject({ trackingStatus: 'in_transit' });
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(before.length);

    const pushed = await fake.push(webhookUrl(), number);
    expect(pushed.status).toBe(200);
    expect(JSON.parse(pushed.body)).toEqual({ received: 1, applied: 1, unknown: [] });
    const after = await getShipment(app, tenant, id);
    expect(after).toMatchObject({ trackingStatus: 'delivered', destinationCarrier: 'usps' });
    const checkpoints = await getCheckpoints(app, tenant, id);
    expect(checkpoints).toHaveLength(before.length + 1);
    // The events already stored are the same checkpoints (ids kept), not copies.
    expect(checkpoints.slice(0, before.length).map((c) => c.id)).toEqual(before.map((c) => c.id));

    // The same push again changes nothing and records no second status event.
    expect((await fake.push(webhookUrl(), number)).status).toBe(200);
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(before.length + 1);
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM outbox_event
        WHERE aggregate_id = $1 AND type = 'shipment.status_changed'`,
      [id],
    );
    expect(n).toBe(2);
    // Final status: stopped at the provider.
    expect(fake.registered.get(number)?.stopped).toBe(true);
  });

  it('answers 202 for an unknown number, 404 for unknown credentials or provider', async () => {
    const stranger = s10Number('CN');
    fake.setJourney(stranger, inTransitJourney());
    const unknown = await fake.push(webhookUrl(), stranger);
    expect(unknown.status).toBe(202);
    expect(JSON.parse(unknown.body)).toEqual({ received: 1, applied: 0, unknown: [stranger] });
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM shipment WHERE tracking_number = $1`,
      [stranger],
    );
    expect(n).toBe(0);

    expect(
      (await fake.push(webhookUrl('6b0d1c2e-0000-4000-8000-000000000000'), stranger)).status,
    ).toBe(404);
    expect((await fake.push(webhookUrl('not-an-id'), stranger)).status).toBe(404);
    expect((await fake.push(webhookUrl(credentialsId, 'nosuch'), stranger)).status).toBe(404);
    // Credentials of another provider type under this provider's path.
    expect((await fake.push(webhookUrl(credentialsId, 'aftership'), stranger)).status).toBe(404);
  });

  it('keeps what a shipment has when 17TRACK is down, records the error and retries', async () => {
    const number = s10Number('CN');
    fake.setJourney(number, inTransitJourney());
    const id = await createShipment(number);
    const before = await getShipment(app, tenant, id);
    const checkpoints = await getCheckpoints(app, tenant, id);

    fake.setJourney(number, deliveredJourney());
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
    expect(after.trackingError).toMatch(/17track answered HTTP 503/);
    expect(await getCheckpoints(app, tenant, id)).toHaveLength(checkpoints.length);
    const row = await trackingRow(app, id);
    expect(row.next_check_at!.getTime()).toBeGreaterThan(NOW.getTime());

    // When the retry is due, it succeeds and clears the error.
    clock.set(row.next_check_at!);
    await app.get(TrackingRefresher).runUntilIdle();
    expect(await getShipment(app, tenant, id)).toMatchObject({
      trackingStatus: 'delivered',
      trackingError: null,
    });
  });

  it('leaves the retry of a create that met an outage to the schedule, not the job queue', async () => {
    const number = s10Number('CN');
    fake.setJourney(number, inTransitJourney());
    fake.server.failNext({ status: 503, body: 'Service Unavailable' });
    const id = await createShipment(number);
    const row = await trackingRow(app, id);
    expect(row.tracking_error).toMatch(/HTTP 503/);
    expect(row.next_check_at!.getTime()).toBe(NOW.getTime() + 15 * 60_000);
    // The job ends without asking pg-boss for quick retries of a provider that is down.
    const deadline = Date.now() + 10_000;
    let job: { state: string; retry_count: number } | undefined;
    for (;;) {
      [job] = await db.query(
        `SELECT state::text AS state, retry_count FROM pgboss.job
          WHERE name = 'tracking.track' AND data->>'shipmentId' = $1`,
        [id],
      );
      if (job?.state === 'completed' || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(job).toEqual({ state: 'completed', retry_count: 0 });
  });

  it('treats a provider that does not answer in time like one that is down', async () => {
    const number = s10Number('CN');
    fake.setJourney(number, inTransitJourney());
    const id = await createShipment(number);
    // A server that accepts connections and never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      await api(app, { token: tenant.token })
        .json()
        .put(`/credentials/${credentialsId}`, {
          parameters: { baseUrl: `http://127.0.0.1:${port}/track/v2.2`, requestsPerSecond: 1000 },
        })
        .expect(200);
      const report = await app.get(TrackingService).trackMany([id], { timeoutMs: 300 });
      expect(report.failures.map((f) => f.transient)).toEqual([true]);
      expect(await getShipment(app, tenant, id)).toMatchObject({
        trackingStatus: 'in_transit',
        destinationCarrier: 'usps',
        trackingError: expect.stringMatching(/no answer within 300 ms/),
      });
      expect(await getCheckpoints(app, tenant, id)).toHaveLength(3);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('honours 429 Retry-After and sends nothing more to 17TRACK in that round', async () => {
    const numbers = Array.from({ length: 80 }, () => s10Number('CN'));
    const ids = await insertShipments(app, tenant.workspaceId, numbers, 'china-post', NOW);
    const calls = fake.server.requests.length;
    fake.server.failNext({ status: 429, headers: { 'Retry-After': '120' }, body: { code: 429 } });
    const report = await app.get(TrackingService).trackMany(ids);
    // The first register batch was refused; the second one was not sent at all.
    expect(fake.server.requests.length - calls).toBe(1);
    expect(report.failures).toHaveLength(80);
    for (const failure of report.failures) {
      expect(failure.retryAt.getTime()).toBe(NOW.getTime() + 120_000);
    }
    const row = await trackingRow(app, ids[0]);
    expect(row.tracking_error).toMatch(/HTTP 429/);
    expect(row.next_check_at!.getTime()).toBe(NOW.getTime() + 120_000);
  });

  it('registers each number once, 40 per call, and polls none that push keeps current', async () => {
    const numbers = Array.from({ length: 85 }, () => s10Number('CN'));
    for (const n of numbers) fake.setJourney(n, inTransitJourney());
    const ids = await insertShipments(app, tenant.workspaceId, numbers, 'china-post', NOW);
    const mine = (r: { body: unknown }) =>
      (r.body as Array<{ number: string }>).some((i) => numbers.includes(i.number));
    const round = await app.get(TrackingService).trackMany(ids);
    expect(round.failures).toEqual([]);
    // The partial batch waits for a later round (due again a minute later) to fill a request.
    expect(
      fake
        .calls('register')
        .filter(mine)
        .map((r) => (r.body as unknown[]).length),
    ).toEqual([40, 40]);
    const [waiting] = await db.query(
      `SELECT count(*)::int AS n FROM shipment
        WHERE id = ANY($1::uuid[]) AND next_check_at = $2 AND tracking_error IS NULL`,
      [ids, new Date(NOW.getTime() + 60_000)],
    );
    expect(waiting.n).toBe(5);
    clock.set(new Date(NOW.getTime() + 60_000));
    await app.get(TrackingRefresher).runUntilIdle();
    const registers = fake.calls('register').filter(mine);
    expect(registers.map((r) => (r.body as unknown[]).length)).toEqual([40, 40, 5]);
    expect(fake.calls('gettrackinfo').filter(mine)).toHaveLength(3);

    // A day later only the ones without a push are polled, and nothing is registered again.
    const pushedNumbers = numbers.slice(0, 80);
    clock.set(new Date(NOW.getTime() + 20 * HOUR));
    for (const n of pushedNumbers) expect((await fake.push(webhookUrl(), n)).status).toBe(200);
    clock.set(new Date(NOW.getTime() + 25 * HOUR));
    const tracksAtPoll = fake.calls('gettrackinfo').length;
    await app.get(TrackingRefresher).runUntilIdle();
    const polled = fake
      .calls('gettrackinfo')
      .slice(tracksAtPoll)
      .flatMap((r) => (r.body as Array<{ number: string }>).map((i) => i.number))
      .filter((n) => numbers.includes(n));
    expect(polled.sort()).toEqual(numbers.slice(80).sort());
    expect(fake.calls('register').filter(mine)).toHaveLength(3);
    for (const n of numbers) expect(registerCallsFor(n)).toBe(1);
  });

  it('flags rejected credentials, notifies the team once and stops asking', async () => {
    const res = await api(app, { token: tenant.token })
      .json()
      .put(`/credentials/${credentialsId}`, { secrets: { apiKey: 'revoked-key-000000' } })
      .expect(200);
    expect(res.body.rejectedAt).toBeNull();
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
    const shipment = await getShipment(app, tenant, ids[0]);
    expect(shipment.trackingError).toMatch(/rejected the credentials/);

    // No retry storm: the next checks do not reach 17TRACK, and the team heard once.
    const calls = fake.server.requests.length;
    const second = await app.get(TrackingService).trackMany(ids);
    expect(second.failures).toHaveLength(2);
    expect(fake.server.requests.length).toBe(calls);
    const row = await trackingRow(app, ids[0]);
    expect(row.next_check_at!.getTime()).toBe(NOW.getTime() + 24 * HOUR);
    const notes: Array<{ message: string; data: string[] }> = await db.query(
      `SELECT message, data FROM notification WHERE user_id = $1 AND tag = 'tracking_credentials_rejected'`,
      [tenant.userId],
    );
    expect(notes).toHaveLength(1);
    expect(notes[0].data).toEqual([`/credentials/${credentialsId}`]);

    // Writing the credentials again clears the flag; tracking works again.
    const fixed = await api(app, { token: tenant.token })
      .json()
      .put(`/credentials/${credentialsId}`, { secrets: { apiKey: fake.apiKey } })
      .expect(200);
    expect(fixed.body.rejectedAt).toBeNull();
    for (const n of numbers) fake.setJourney(n, inTransitJourney());
    const third = await app.get(TrackingService).trackMany(ids);
    expect(third.failures).toEqual([]);
    expect(await getShipment(app, tenant, ids[0])).toMatchObject({
      trackingStatus: 'in_transit',
      trackingError: null,
    });
  });

  it('routes carriers: overrides, the default, and the built-in sandbox and no_info', async () => {
    const other = await createTenant(app);
    const sandbox = await api(app, { token: other.token })
      .json()
      .post('/shipments', {
        workspace: `/workspaces/${other.workspaceId}`,
        trackingNumber: testTrackingNumber(),
      })
      .expect(201);
    // A team without tracking credentials: today's behaviour, nothing sent to 17TRACK.
    const calls = fake.server.requests.length;
    const plain = s10Number('CN');
    const [plainId] = await insertShipments(app, other.workspaceId, [plain], 'china-post', NOW);
    await app.get(TrackingService).trackMany([plainId, sandbox.body.id]);
    expect(fake.server.requests.length).toBe(calls);
    expect(await getShipment(app, other, plainId)).toMatchObject({ trackingStatus: 'no_info' });
    expect(await getShipment(app, other, sandbox.body.id)).toMatchObject({
      originCarrier: 'tm-test',
    });

    // Credentials limited to UPS do not serve China Post numbers.
    await createProviderCredentials(
      app,
      other,
      '17track',
      { baseUrl: fake.apiUrl, carriers: 'ups', requestsPerSecond: 1000 },
      { apiKey: fake.apiKey },
    );
    await app.get(TrackingService).trackMany([plainId]);
    expect(fake.server.requests.length).toBe(calls);
    const bad = await api(app, { token: other.token })
      .json()
      .post('/credentials', {
        type: '17track',
        team: `/teams/${other.teamId}`,
        parameters: { carriers: 'ups,nosuch-carrier' },
      })
      .expect(422);
    expect(JSON.stringify(bad.body)).toMatch(/nosuch-carrier/);
  });
});
