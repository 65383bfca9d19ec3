import {
  startUpsFake,
  upsFakeAlertEvent,
  upsFakePush,
  type UpsFake,
  type UpsFakeActivity,
  type UpsFakePackage,
} from '../fakes/ups-fake';
import { describeTrackingProvider, postDelivery } from './provider-e2e-harness';
import { formatNumber, getCheckpoints, getShipment } from './provider-e2e-support';

const WEBHOOK_SECRET = 'ups-track-alert-credential';

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

describeTrackingProvider<UpsFake>({
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
    title: 'applies a Track Alert push with the right credential; a wrong or missing one is 401',
    seed: (fake, number) =>
      fake.setPackage(number, { activities: [LABEL, ON_THE_WAY], scheduledDelivery: '20260311' }),
    deliveries: (_ctx, number) => {
      const event = upsFakeAlertEvent(number, OUT_FOR_DELIVERY, '20260310');
      return {
        valid: postDelivery(upsFakePush(WEBHOOK_SECRET, event)),
        forged: [
          postDelivery(upsFakePush('not-the-credential', event)),
          postDelivery({
            headers: {
              'Content-Type': 'application/json',
              'User-Agent': 'UPSPubSubTrackingService',
            },
            body: JSON.stringify(event),
          }),
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
    stranger: () => {
      const number = upsNumber();
      const event = upsFakeAlertEvent(number, ON_THE_WAY);
      return { number, send: postDelivery(upsFakePush(WEBHOOK_SECRET, event)) };
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
});
