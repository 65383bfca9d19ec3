import { randomInt } from 'node:crypto';
import { easyPostDetail, startEasyPostFake, type EasyPostFake } from '../fakes/easypost-fake';
import { describeTrackingProvider, postDelivery } from './provider-e2e-harness';

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

const seed = (
  fake: EasyPostFake,
  code: string,
  status: string,
  details: Record<string, unknown>[],
) =>
  fake.setTracker({
    tracking_code: code,
    carrier: 'DHLeCommerce',
    status,
    est_delivery_date: '2026-03-14T00:00:00Z',
    tracking_details: details,
  });

describeTrackingProvider<EasyPostFake>({
  name: 'EasyPost',
  type: 'easypost',
  carrier: 'dhl-ecommerce',
  start: () => startEasyPostFake(),
  credentials: (fake) => ({
    parameters: { baseUrl: fake.baseUrl, requestsPerSecond: 1000 },
    secrets: { apiKey: fake.apiKey, webhookSecret: fake.webhookSecret },
  }),
  number: dhlEcommerceNumber,
  inTransit: {
    seed: (fake, number) => seed(fake, number, 'in_transit', inTransitDetails()),
    status: 'in_transit',
    checkpoints: 2,
  },
  delivered: {
    seed: (fake, number) => seed(fake, number, 'delivered', deliveredDetails()),
    checkpoints: 3,
  },
  lastMile: 'usps',
  pushKeepsCurrent: true,
  tracks: {
    title: 'tracks a real-format number: status, checkpoints, raw status, ETA, last-mile carrier',
    shipment: { expectedDeliveryDate: '2026-03-14T00:00:00+00:00' },
    checkpoints: [
      {
        info: 'Processed',
        status: 'in_transit',
        rawStatus: 'in_transit/arrived_at_facility',
        carrier: 'dhl-ecommerce',
        rel: 'origin',
        location: 'ORLANDO, FL, 32824',
        countryIso2: 'US',
        checkpointDate: '2026-03-02T14:10:00.000Z',
      },
      {
        info: 'Arrived at Post Office',
        status: 'in_transit',
        rawStatus: 'in_transit/transferred_to_destination_carrier',
        carrier: 'usps',
        rel: 'destination',
        location: 'NEW YORK, NY',
        countryIso2: 'US',
        checkpointDate: '2026-03-08T12:30:00.000Z',
      },
    ],
    check: ({ fake }, { number }) => {
      const creates = fake.server
        .calls('POST', '/v2/trackers')
        .filter((r) => JSON.stringify(r.body).includes(number));
      expect(creates.map((r) => r.body)).toEqual([
        { tracker: { tracking_code: number, carrier: 'DHLeCommerce' } },
      ]);
    },
  },
  webhook: {
    title: 'applies a signed Event; a bad signature is 401 and changes nothing',
    deliveries: ({ fake }, number) => {
      const tracker = seed(fake, number, 'delivered', deliveredDetails());
      const unsigned = fake.signedDelivery(tracker);
      delete unsigned.headers['X-Hmac-Signature'];
      return {
        valid: postDelivery(fake.signedDelivery(tracker)),
        forged: [
          postDelivery(fake.signedDelivery(tracker, { secret: 'not-the-secret' })),
          postDelivery(unsigned),
        ],
      };
    },
    expect: { trackingStatus: 'delivered', destinationCarrier: 'usps' },
    stranger: ({ fake }) => {
      const number = dhlEcommerceNumber();
      const tracker = seed(fake, number, 'in_transit', inTransitDetails());
      return { number, send: postDelivery(fake.signedDelivery(tracker)) };
    },
  },
  outage: {
    fail: (fake) => fake.server.failNext({ status: 502, body: 'Bad Gateway' }),
    status: 502,
  },
  rejected: { secrets: { apiKey: 'EZTKrevoked000000' }, reason: /HTTP 401/ },
});
