import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testTrackingNumber } from '../factories/commerce.factory';
import { createTenant } from '../factories/tenant.factory';
import {
  ACCEPTED_IN_SHENZHEN,
  SEVENTEEN_TRACK_PREFIX,
  startSeventeenTrackFake,
  type FakeSeventeenTrackJourney,
  type SeventeenTrackFake,
} from '../fakes/seventeen-track-fake';
import { api } from '../support/http';
import {
  CHINA_POST_TO_USPS,
  chinaPostToUspsTracks,
  describeTrackingProvider,
  HOUR,
  NOW,
} from './provider-e2e-harness';
import {
  createProviderCredentials,
  getCheckpoints,
  getShipment,
  insertShipments,
  s10Number,
  trackingRow,
} from './provider-e2e-support';

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
      ACCEPTED_IN_SHENZHEN,
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

/** Requests to an endpoint (`register`, `gettrackinfo`) that carried this number. */
const callsFor = (fake: SeventeenTrackFake, endpoint: string, number: string) =>
  fake
    .calls(endpoint)
    .filter((r) => (r.body as Array<{ number: string }>).some((i) => i.number === number)).length;
const registerCallsFor = (fake: SeventeenTrackFake, number: string) =>
  callsFor(fake, 'register', number);

describeTrackingProvider<SeventeenTrackFake>(
  {
    name: '17TRACK',
    type: '17track',
    ...CHINA_POST_TO_USPS,
    start: () => startSeventeenTrackFake(),
    credentials: (fake) => ({
      parameters: { baseUrl: fake.apiUrl, requestsPerSecond: 1000 },
      secrets: { apiKey: fake.apiKey },
    }),
    inTransit: {
      seed: (fake, number) => fake.setJourney(number, inTransitJourney()),
      status: 'in_transit',
      checkpoints: 3,
    },
    delivered: {
      seed: (fake, number) => fake.setJourney(number, deliveredJourney()),
      checkpoints: 4,
    },
    tracks: {
      ...chinaPostToUspsTracks('2026-03-14T18:00:00+00:00'),
      checkpoints: [
        {
          info: 'Acceptance',
          status: 'in_transit',
          rawStatus: 'PickedUp/InTransit_PickedUp',
          carrier: 'china-post',
          rel: 'origin',
          location: 'SHENZHEN',
          countryIso2: 'CN',
          checkpointDate: '2026-03-02T01:10:00.000Z',
        },
        {
          info: 'Departure from outward office of exchange',
          status: 'in_transit',
          rawStatus: 'Departure/InTransit_Departure',
          carrier: 'china-post',
          rel: 'origin',
          location: 'GUANGZHOU',
          countryIso2: 'CN',
          checkpointDate: '2026-03-04T14:00:00.000Z',
        },
        {
          info: 'Arrived at USPS Regional Facility',
          status: 'in_transit',
          rawStatus: 'Arrival/InTransit_Arrival',
          carrier: 'usps',
          rel: 'destination',
          location: 'NEW YORK NY',
          countryIso2: 'US',
          checkpointDate: '2026-03-08T12:30:00.000Z',
        },
      ],
      check: async ({ fake, refreshAt }, { number }) => {
        expect(registerCallsFor(fake, number)).toBe(1);
        const [register] = fake.calls('register').slice(-1);
        expect(register.headers['17token']).toBe(fake.apiKey);
        expect(register.body).toEqual([{ number, carrier: CHINA_POST }]);
        // Nothing is due before the safety-net poll.
        await refreshAt(NOW);
        expect(callsFor(fake, 'gettrackinfo', number)).toBe(1);
      },
      // The safety-net poll saw the delivery; stopped at 17TRACK, never registered again.
      delivered: ({ fake }, { number }) => {
        expect(callsFor(fake, 'gettrackinfo', number)).toBe(2);
        expect(registerCallsFor(fake, number)).toBe(1);
        expect(fake.registered.get(number)).toEqual({ carrier: CHINA_POST, stopped: true });
      },
    },
    webhook: {
      title:
        'applies a signed push like a refresh; a bad or missing signature is 401 and writes nothing',
      deliveries: ({ fake }, number) => {
        fake.setJourney(number, deliveredJourney());
        return {
          valid: (url) => fake.push(url, number),
          forged: [
            (url) => fake.push(url, number, { signWith: 'not-the-key' }),
            (url) => fake.push(url, number, { signWith: null }),
          ],
        };
      },
      expect: { trackingStatus: 'delivered', destinationCarrier: 'usps' },
      // Final status: stopped at the provider.
      check: ({ fake }, { number }) => expect(fake.registered.get(number)?.stopped).toBe(true),
      stranger: ({ fake }) => {
        const number = s10Number('CN');
        fake.setJourney(number, inTransitJourney());
        return { number, send: (url) => fake.push(url, number) };
      },
    },
    outage: {
      fail: (fake) => fake.server.failNext({ status: 503, body: 'Service Unavailable' }),
      status: 503,
    },
    rateLimit: {
      title: 'honours 429 Retry-After and sends nothing more to 17TRACK in that round',
      // Two register batches: the first is refused, the second must not be sent at all.
      count: 80,
      limit: (fake) =>
        fake.server.failNext({
          status: 429,
          headers: { 'Retry-After': '120' },
          body: { code: 429 },
        }),
      retryAfterMs: 120_000,
    },
    stop: {
      watch: (fake, number) => () =>
        fake
          .calls('stoptrack')
          .flatMap((r) => r.body as Array<{ number: string; carrier?: number }>)
          .filter((i) => i.number === number),
      expected: (number) => ({ number, carrier: CHINA_POST }),
      fail: (fake) =>
        fake.server.failNextOn('POST', `${SEVENTEEN_TRACK_PREFIX}/stoptrack`, {
          status: 429,
          headers: { 'Retry-After': '1', 'Content-Type': 'text/plain' },
          body: 'Too Many Requests',
        }),
    },
    rejected: { secrets: { apiKey: 'revoked-key-000000' }, reason: /HTTP 401/ },
  },
  (ctx) => {
    it('leaves the retry of a create that met an outage to the schedule, not the job queue', async () => {
      const { app, db, fake } = ctx;
      const number = s10Number('CN');
      fake.setJourney(number, inTransitJourney());
      fake.server.failNext({ status: 503, body: 'Service Unavailable' });
      const id = await ctx.createShipment(number);
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
      const { app, fake, tenant, credentialsId } = ctx;
      const number = s10Number('CN');
      fake.setJourney(number, inTransitJourney());
      const id = await ctx.createShipment(number);
      // A server that accepts connections and never answers.
      const silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = silent.address() as AddressInfo;
        await api(app, { token: tenant.token })
          .json()
          .put(`/credentials/${credentialsId}`, {
            parameters: { baseUrl: `http://127.0.0.1:${port}/track/v2.2`, requestsPerSecond: 1000 },
            // Another server: the key goes with it again, or it is dropped (credentials rule).
            secrets: { apiKey: fake.apiKey },
          })
          .expect(200);
        const report = await ctx.trackMany([id], { timeoutMs: 300 });
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

    it('registers each number once, 40 per call, and polls none that push keeps current', async () => {
      const { app, db, clock, fake, tenant } = ctx;
      const numbers = Array.from({ length: 85 }, () => s10Number('CN'));
      for (const n of numbers) fake.setJourney(n, inTransitJourney());
      const ids = await insertShipments(app, tenant.workspaceId, numbers, 'china-post', NOW);
      const mine = (r: { body: unknown }) =>
        (r.body as Array<{ number: string }>).some((i) => numbers.includes(i.number));
      const round = await ctx.trackMany(ids);
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
      await ctx.refreshAt(new Date(NOW.getTime() + 60_000));
      const registers = fake.calls('register').filter(mine);
      expect(registers.map((r) => (r.body as unknown[]).length)).toEqual([40, 40, 5]);
      expect(fake.calls('gettrackinfo').filter(mine)).toHaveLength(3);

      // A day later only the ones without a push are polled, and nothing is registered again.
      const pushedNumbers = numbers.slice(0, 80);
      clock.set(new Date(NOW.getTime() + 20 * HOUR));
      for (const n of pushedNumbers) {
        expect((await fake.push(ctx.webhookUrl(), n)).status).toBe(200);
      }
      const tracksAtPoll = fake.calls('gettrackinfo').length;
      await ctx.refreshAt(new Date(NOW.getTime() + 25 * HOUR));
      const polled = fake
        .calls('gettrackinfo')
        .slice(tracksAtPoll)
        .flatMap((r) => (r.body as Array<{ number: string }>).map((i) => i.number))
        .filter((n) => numbers.includes(n));
      expect(polled.sort()).toEqual(numbers.slice(80).sort());
      expect(fake.calls('register').filter(mine)).toHaveLength(3);
      for (const n of numbers) expect(registerCallsFor(fake, n)).toBe(1);
    });

    it('routes carriers: overrides, the default, and the built-in sandbox and no_info', async () => {
      const { app, fake } = ctx;
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
      await ctx.trackMany([plainId, sandbox.body.id]);
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
      await ctx.trackMany([plainId]);
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
  },
);
