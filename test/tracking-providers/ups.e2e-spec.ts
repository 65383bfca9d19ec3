import type { DataSource } from 'typeorm';
import { AppConfig } from '../../src/config/app-config';
import { api } from '../support/http';
import {
  startUpsFake,
  UPS_FAKE_SUBSCRIPTION_PREFIX,
  upsFakeAlertEvent,
  upsTrackAlertSend,
  type UpsFake,
  type UpsFakeActivity,
  type UpsFakePackage,
} from '../fakes/ups-fake';
import { describeTrackingProvider, HOUR, NOW } from './provider-e2e-harness';
import {
  formatNumber,
  getCheckpoints,
  getShipment,
  insertShipments,
  trackingRow,
} from './provider-e2e-support';

/** The client secret UPS uses at our token URL before pushing (set in the UPS portal). */
const WEBHOOK_SECRET = 'ups-track-alert-client-secret';
const DAY = 24 * HOUR;

/** Subscription requests that carried a number (accepted or not). */
const subscriptionCalls = (fake: UpsFake, number: string) =>
  fake.server.requests.filter(
    (r) =>
      r.path.startsWith(UPS_FAKE_SUBSCRIPTION_PREFIX) &&
      ((r.body as { trackingNumberList?: string[] })?.trackingNumberList ?? []).includes(number),
  );

async function pushSubscription(db: DataSource, id: string) {
  const [row] = await db.query(
    `SELECT push_subscribed_at, push_refused_at FROM shipment_remote_tracking
      WHERE shipment_id = $1`,
    [id],
  );
  return row as { push_subscribed_at: Date | null; push_refused_at: Date | null };
}

/** A valid 1Z number (check digit computed), different on each call. */
const upsNumber = () => formatNumber('ups-1z');

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

describeTrackingProvider<UpsFake>(
  {
    name: 'UPS',
    type: 'ups',
    carrier: 'ups',
    start: () => startUpsFake(),
    credentials: (fake) => ({
      parameters: { baseUrl: fake.baseUrl, clientId: fake.clientId, requestsPerSecond: 1000 },
      secrets: { clientSecret: fake.clientSecret, webhookSecret: WEBHOOK_SECRET },
    }),
    number: upsNumber,
    inTransit: {
      seed: (fake, number) => fake.setPackage(number, GROUND_SAVER),
      status: 'in_transit',
      checkpoints: 2,
    },
    delivered: {
      seed: (fake, number) =>
        fake.setPackage(number, {
          ...GROUND_SAVER,
          activities: [LABEL, ON_THE_WAY, OUT_FOR_DELIVERY, DELIVERED],
        }),
      checkpoints: 4,
    },
    lastMile: 'usps',
    tokens: { issued: (fake) => fake.tokensIssued(), expire: (fake) => fake.expireTokens() },
    tracks: {
      title:
        'tracks a 1Z number: status, checkpoints, raw status, ETA, USPS last mile; one token reused',
      shipment: { expectedDeliveryDate: '2026-03-11T00:00:00+00:00' },
      checkpoints: [
        {
          info: 'Shipment Ready for UPS',
          status: 'pre_transit',
          rawStatus: 'M/MP/003',
          carrier: 'ups',
          location: null,
          checkpointDate: '2026-03-08T14:12:30.000Z',
        },
        {
          info: 'On the Way',
          status: 'in_transit',
          rawStatus: 'I/OR/005',
          carrier: 'ups',
          location: 'Hickory, NC',
          countryIso2: 'US',
          checkpointDate: '2026-03-09T02:29:01.000Z',
        },
      ],
      check: ({ fake }, { number }) => {
        const [call] = fake.trackCalls().filter((r) => r.path.endsWith(number));
        expect(call.headers.transid).toMatch(/^[0-9a-f]{32}$/);
        expect(call.headers.transactionsrc).toBeTruthy();
        // Subscribed to Track Alert v2 on its first check, before it was polled.
        const [subscription] = subscriptionCalls(fake, number);
        expect(subscription.path).toBe('/api/track/v2/subscription/standard/package');
        expect(subscription.body).toEqual({
          locale: 'en_US',
          countryCode: 'US',
          trackingNumberList: [number],
        });
        expect(subscription.headers.authorization).toMatch(/^Bearer \S+$/);
        expect(subscription.headers.transid).toMatch(/^[0-9a-f]{32}$/);
        expect(fake.server.requests.indexOf(subscription)).toBeLessThan(
          fake.server.requests.indexOf(call),
        );
        expect(fake.isSubscribed(number)).toBe(true);
      },
      beforeReuse: async ({ app, fake, tenant, trackMany }, { number, id }) => {
        fake.setPackage(number, {
          ...GROUND_SAVER,
          activities: [LABEL, ON_THE_WAY, OUT_FOR_DELIVERY],
        });
        expect((await trackMany([id])).failures).toEqual([]);
        expect(await getShipment(app, tenant, id)).toMatchObject({
          trackingStatus: 'delivery_in_progress',
        });
      },
      statuses: ['in_transit', 'delivery_in_progress', 'delivered'],
    },
    webhook: {
      title:
        'applies a Track Alert push with a token from our token URL; a wrong, forged or missing one is 401',
      seed: (fake, number) =>
        fake.setPackage(number, { activities: [LABEL, ON_THE_WAY], scheduledDelivery: '20260311' }),
      deliveries: ({ credentialsId }, number) => {
        const event = upsFakeAlertEvent(number, OUT_FOR_DELIVERY, '20260310');
        const client = { clientId: credentialsId, clientSecret: WEBHOOK_SECRET };
        return {
          valid: upsTrackAlertSend(client, event),
          forged: [
            // The token URL refuses another secret: the push comes without a token.
            upsTrackAlertSend({ ...client, clientSecret: 'not-the-secret' }, event),
            upsTrackAlertSend(client, event, { token: 'forged.token' }),
            upsTrackAlertSend(client, event, { token: null }),
          ],
        };
      },
      expect: {
        trackingStatus: 'delivery_in_progress',
        expectedDeliveryDate: '2026-03-10T00:00:00+00:00',
      },
      check: async (ctx, { number, id }) => {
        const { app, fake, tenant } = ctx;
        const after = await getCheckpoints(app, tenant, id);
        expect(after.map((c) => c.rawStatus)).toEqual(['M/MP/003', 'I/OR/005', 'I/OT/021']);
        // The pushed event polled later is the same checkpoint.
        fake.setPackage(number, { activities: [LABEL, ON_THE_WAY, OUT_FOR_DELIVERY] });
        await ctx.trackMany([id]);
        expect(await getCheckpoints(app, tenant, id)).toHaveLength(3);
        expect(await ctx.statusChanges(id)).toEqual(['in_transit', 'delivery_in_progress']);
      },
      stranger: ({ credentialsId }) => {
        const number = upsNumber();
        const event = upsFakeAlertEvent(number, ON_THE_WAY);
        const client = { clientId: credentialsId, clientSecret: WEBHOOK_SECRET };
        return { number, send: upsTrackAlertSend(client, event) };
      },
    },
    outage: {
      fail: (fake) =>
        fake.server.failNext({
          status: 503,
          body: { response: { errors: [{ code: '10004', message: 'Service unavailable' }] } },
        }),
      status: 503,
    },
    rateLimit: {
      title: 'honours 429 Retry-After and asks UPS nothing more in that round',
      count: 3,
      limit: (fake) => fake.rateLimitNext(90),
      retryAfterMs: 90_000,
      warmUp: true, // a token in the cache
    },
    rejected: { secrets: { clientSecret: 'revoked-secret-0000' }, reason: /HTTP 401/ },
  },
  (ctx) => {
    const inTransit = async (number = upsNumber()) => {
      ctx.fake.setPackage(number, GROUND_SAVER);
      const [id] = await insertShipments(ctx.app, ctx.tenant.workspaceId, [number], 'ups', NOW);
      return { number, id };
    };

    it('applies what UPS then pushes for a subscribed number; other numbers are only polled', async () => {
      const { app, db, fake, tenant, credentialsId } = ctx;
      // The app's webhook in the UPS portal: our receiver, its token URL, these credentials.
      fake.configureWebhook({
        url: ctx.webhookUrl(),
        tokenUrl: `${ctx.webhookUrl()}/token`,
        clientId: credentialsId,
        clientSecret: WEBHOOK_SECRET,
      });
      const number = upsNumber();
      fake.setPackage(number, { activities: [LABEL, ON_THE_WAY], scheduledDelivery: '20260311' });
      const id = await ctx.createShipment(number);
      expect(fake.isSubscribed(number)).toBe(true);
      expect(await pushSubscription(db, id)).toEqual({
        push_subscribed_at: NOW,
        push_refused_at: null,
      });

      const pushed = await fake.alert(upsFakeAlertEvent(number, OUT_FOR_DELIVERY, '20260310'));
      expect(pushed.status).toBe(200);
      expect(await getShipment(app, tenant, id)).toMatchObject({
        trackingStatus: 'delivery_in_progress',
        expectedDeliveryDate: '2026-03-10T00:00:00+00:00',
      });
      // Pushes make it fresher; it is still polled at the usual cadence (no daily safety net).
      expect((await trackingRow(app, id)).next_check_at!.getTime()).toBeLessThan(
        NOW.getTime() + 12 * HOUR,
      );

      // A UPS number Track Alert does not cover (not a 1Z): polled, never subscribed.
      const other = await inTransit('MI9212490000412345');
      expect((await ctx.trackMany([other.id])).failures).toEqual([]);
      expect(subscriptionCalls(fake, other.number)).toEqual([]);
      expect(await getShipment(app, tenant, other.id)).toMatchObject({
        trackingStatus: 'in_transit',
      });
      await expect(fake.alert(upsFakeAlertEvent(other.number, DELIVERED))).rejects.toThrow(
        /not subscribed/,
      );
    });

    it('ends the round at a Track Alert 429 (Retry-After) and subscribes on the retry', async () => {
      const { app, fake, tenant } = ctx;
      const { number, id } = await inTransit();
      fake.server.failNextOn('POST', UPS_FAKE_SUBSCRIPTION_PREFIX, {
        status: 429,
        headers: { 'Retry-After': '120' },
        body: { response: { errors: [{ code: '10429', message: 'Too Many Requests' }] } },
      });
      const report = await ctx.trackMany([id]);
      expect(report.failures).toMatchObject([{ transient: true }]);
      expect(report.failures[0].retryAt).toEqual(new Date(NOW.getTime() + 120_000));
      expect(fake.trackCalls().filter((r) => r.path.endsWith(number))).toEqual([]);
      expect(fake.isSubscribed(number)).toBe(false);
      expect((await trackingRow(app, id)).tracking_error).toMatch(/HTTP 429/);

      await ctx.refreshAt(report.failures[0].retryAt);
      expect(fake.isSubscribed(number)).toBe(true);
      expect(subscriptionCalls(fake, number)).toHaveLength(2);
      expect(await getShipment(app, tenant, id)).toMatchObject({
        trackingStatus: 'in_transit',
        trackingError: null,
      });
    });

    it('subscribes numbers still in transit again before 14 days lapse, final ones never', async () => {
      const { db, fake } = ctx;
      const moving = await inTransit();
      await ctx.trackMany([moving.id]);
      const done = upsNumber();
      fake.setPackage(done, { ...GROUND_SAVER, activities: [LABEL, ON_THE_WAY, DELIVERED] });
      const [doneId] = await insertShipments(ctx.app, ctx.tenant.workspaceId, [done], 'ups', NOW);
      await ctx.trackMany([doneId]);
      // A 1Z number UPS refuses: tracked all the same, not asked again for 14 days.
      const refused = await inTransit();
      fake.server.failNextOn('POST', UPS_FAKE_SUBSCRIPTION_PREFIX, {
        status: 200,
        body: { validTrackingNumbers: [], invalidTrackingNumbers: [refused.number] },
      });
      expect((await ctx.trackMany([refused.id])).failures).toEqual([]);
      expect(await pushSubscription(db, refused.id)).toEqual({
        push_subscribed_at: null,
        push_refused_at: NOW,
      });

      // Polled every few hours for 11 days: nobody subscribed again.
      await ctx.refreshAt(new Date(NOW.getTime() + 11 * DAY));
      for (const n of [moving.number, done, refused.number]) {
        expect(subscriptionCalls(fake, n)).toHaveLength(1);
      }
      // Two days before the 14 days lapse, the next poll subscribes again.
      const renewal = new Date(NOW.getTime() + 12 * DAY + HOUR);
      await ctx.refreshAt(renewal);
      expect(subscriptionCalls(fake, moving.number)).toHaveLength(2);
      expect((await pushSubscription(db, moving.id)).push_subscribed_at).toEqual(renewal);
      expect(subscriptionCalls(fake, done)).toHaveLength(1);
      expect(subscriptionCalls(fake, refused.number)).toHaveLength(1);
      // A refusal is asked again once a subscription would have lapsed.
      await ctx.refreshAt(new Date(NOW.getTime() + 14 * DAY + HOUR));
      expect(subscriptionCalls(fake, refused.number)).toHaveLength(2);
      expect(fake.isSubscribed(refused.number)).toBe(true);
    });

    it('serves Track Alert its token URL (RFC 6749 client credentials); tokens expire', async () => {
      const { app, clock, credentialsId, fake } = ctx;
      const tokenUrl = `${ctx.webhookUrl()}/token`;
      const ask = (headers: Record<string, string>, body: string, url = tokenUrl) =>
        fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
          body,
        });
      const basic = (id: string, secret: string) => ({
        Authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      });
      const granted = await ask(
        basic(credentialsId, WEBHOOK_SECRET),
        'grant_type=client_credentials',
      );
      expect(granted.status).toBe(200);
      expect(granted.headers.get('cache-control')).toBe('no-store');
      const body = (await granted.json()) as Record<string, unknown>;
      expect(body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
      });
      const fields = await ask(
        {},
        `grant_type=client_credentials&client_id=${credentialsId}&client_secret=${WEBHOOK_SECRET}`,
      );
      expect(fields.status).toBe(200);

      const wrong = await ask(basic(credentialsId, 'guess'), 'grant_type=client_credentials');
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual({ error: 'invalid_client' });
      expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
      const grant = await ask(basic(credentialsId, WEBHOOK_SECRET), 'grant_type=password');
      expect(grant.status).toBe(400);
      expect(await grant.json()).toEqual({ error: 'unsupported_grant_type' });
      const elsewhere = (id: string, type = 'ups') =>
        ask(
          basic(credentialsId, WEBHOOK_SECRET),
          'grant_type=client_credentials',
          `${ctx.webhookUrl(id, type)}/token`,
        );
      expect((await elsewhere('6b0d1c2e-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await elsewhere(credentialsId, 'ship24')).status).toBe(404);

      // A push an hour after its token was issued is refused.
      const { number, id } = await inTransit();
      await ctx.trackMany([id]);
      const event = upsFakeAlertEvent(number, OUT_FOR_DELIVERY);
      const client = { clientId: credentialsId, clientSecret: WEBHOOK_SECRET };
      const token = body.access_token as string;
      clock.advance(3600_000);
      expect((await upsTrackAlertSend(client, event, { token })(ctx.webhookUrl())).status).toBe(
        401,
      );
      expect((await upsTrackAlertSend(client, event)(ctx.webhookUrl())).status).toBe(200);
      expect(fake.isSubscribed(number)).toBe(true);
      expect(await getShipment(app, ctx.tenant, id)).toMatchObject({
        trackingStatus: 'delivery_in_progress',
      });
    });

    it('limits guesses at the token URL (push failures per credentials, token routes per client id)', async () => {
      // A client id of its own: the token budget of the client the other tests use is untouched
      // (and every test has credentials of its own).
      const probe = `probe-${Date.now()}`;
      const guess = (secret: string) =>
        fetch(`${ctx.webhookUrl()}/token`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Authorization: `Basic ${Buffer.from(`${probe}:${secret}`).toString('base64')}`,
          },
          body: 'grant_type=client_credentials',
        });
      // Wrong client secrets spend the credentials' push failure budget (the smaller one).
      const config = ctx.app.get(AppConfig);
      const allowed = Math.min(
        config.tokenRateLimitPerClient,
        config.pushFailureLimitPerCredentials,
      );
      for (let i = 0; i < allowed; i++) expect((await guess(`guess-${i}`)).status).toBe(401);
      const limited = await guess('one more');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('subscribes nothing and accepts no push without a webhookSecret', async () => {
      const { app, fake, tenant, credentialsId } = ctx;
      await api(app, { token: tenant.token })
        .json()
        .put(`/credentials/${credentialsId}`, {
          secrets: { clientSecret: fake.clientSecret, webhookSecret: null },
        })
        .expect(200);
      const { number, id } = await inTransit();
      expect((await ctx.trackMany([id])).failures).toEqual([]);
      expect(subscriptionCalls(fake, number)).toEqual([]);
      const client = { clientId: credentialsId, clientSecret: WEBHOOK_SECRET };
      const push = await upsTrackAlertSend(
        client,
        upsFakeAlertEvent(number, DELIVERED),
      )(ctx.webhookUrl());
      expect(push.status).toBe(401);
    });
  },
);
