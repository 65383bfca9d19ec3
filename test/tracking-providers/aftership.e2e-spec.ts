import {
  AFTERSHIP_FAKE_VERSION,
  startAfterShipFake,
  type AfterShipFake,
} from '../fakes/aftership-fake';
import {
  CHINA_POST_TO_USPS,
  chinaPostToUspsTracks,
  describeTrackingProvider,
  postDelivery,
} from './provider-e2e-harness';
import { s10Number } from './provider-e2e-support';

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

describeTrackingProvider<AfterShipFake>({
  name: 'AfterShip',
  type: 'aftership',
  ...CHINA_POST_TO_USPS,
  start: () => startAfterShipFake(),
  credentials: (fake) => ({
    parameters: { baseUrl: fake.baseUrl, requestsPerSecond: 1000 },
    secrets: { apiKey: fake.apiKey, webhookSecret: fake.webhookSecret },
  }),
  inTransit: {
    seed: (fake, number) => fake.setTracking(inTransit(number)),
    status: 'in_transit',
    checkpoints: 2,
  },
  delivered: { seed: (fake, number) => fake.setTracking(delivered(number)), checkpoints: 3 },
  tracks: {
    ...chinaPostToUspsTracks('2026-03-14T00:00:00+00:00'),
    checkpoints: [
      {
        info: 'Acceptance',
        status: 'in_transit',
        rawStatus: 'InTransit/InTransit_002',
        carrier: 'china-post',
        rel: 'origin',
        location: 'SHENZHEN',
        countryIso2: 'CN',
        checkpointDate: '2026-03-02T01:10:00.000Z',
      },
      {
        info: 'Arrived at USPS Regional Facility',
        status: 'in_transit',
        rawStatus: 'InTransit/InTransit_003',
        carrier: 'usps',
        rel: 'destination',
        location: 'NEW YORK NY',
        countryIso2: 'US',
        checkpointDate: '2026-03-08T12:30:00.000Z',
      },
    ],
    check: ({ fake }, { number }) => {
      // Registered once, with the courier's slug, in a flat 2025-01 body.
      const creates = fake.server
        .calls('POST', '/tracking/2025-01/trackings')
        .filter((r) => (r.body as { tracking_number?: string }).tracking_number === number);
      expect(creates.map((r) => r.body)).toEqual([{ tracking_number: number, slug: 'china-post' }]);
      expect(creates[0].headers['as-api-key']).toBe(fake.apiKey);
    },
    // Completed at AfterShip once delivered.
    delivered: ({ fake }, { number }) =>
      expect(fake.findTracking(number, 'china-post')?.active).toBe(false),
  },
  webhook: {
    title: 'applies a signed push like a refresh; a bad signature is 401 and changes nothing',
    deliveries: ({ fake }, number) => {
      const done = fake.setTracking(delivered(number));
      const unsigned = fake.signedDelivery(done);
      delete unsigned.headers['aftership-hmac-sha256'];
      return {
        valid: postDelivery(fake.signedDelivery(done)),
        forged: [
          postDelivery(fake.signedDelivery(done, { secret: 'not-the-secret' })),
          postDelivery(unsigned),
        ],
      };
    },
    expect: { trackingStatus: 'delivered', destinationCarrier: 'usps' },
    stranger: ({ fake }) => {
      const number = s10Number('CN');
      return {
        number,
        send: postDelivery(fake.signedDelivery(fake.setTracking(inTransit(number)))),
      };
    },
  },
  outage: {
    fail: (fake) => fake.server.failNext({ status: 503, body: { meta: { code: 503 }, data: {} } }),
    status: 503,
  },
  rateLimit: {
    title: 'honours the X-RateLimit-Reset of a 429',
    count: 1,
    limit: (fake) => fake.rateLimitNext(30),
    retryAfterMs: { min: 1000, max: 31_000 },
  },
  stop: {
    // Not final at AfterShip: the deleted shipment's tracking is deleted there.
    watch: (fake, number) => {
      const path = `/tracking/${AFTERSHIP_FAKE_VERSION}/trackings/${fake.findTracking(number)!.id}`;
      return () =>
        fake.server
          .calls('DELETE', path)
          .map((r) => ({ method: r.method, path: r.path, apiKey: r.headers['as-api-key'] }));
    },
    expected: () => ({
      method: 'DELETE',
      path: expect.stringMatching(/^\/tracking\/2025-01\/trackings\/[0-9a-f]{32}$/),
      apiKey: expect.stringMatching(/^asat_/),
    }),
    fail: (fake) =>
      fake.server.failNextOn('DELETE', `/tracking/${AFTERSHIP_FAKE_VERSION}/trackings/`, {
        status: 503,
        body: { meta: { code: 503 }, data: {} },
      }),
  },
  rejected: { secrets: { apiKey: 'revoked-key-000000' }, reason: /HTTP 401/ },
});
