import {
  startUspsFake,
  type UspsFake,
  type UspsFakeEvent,
  type UspsFakePackage,
} from '../fakes/usps-fake';
import { describeTrackingProvider } from './provider-e2e-harness';
import { formatNumber } from './provider-e2e-support';

/** A valid 20-digit USPS number, different on each call. */
const uspsNumber = () => formatNumber('usps-20');

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

describeTrackingProvider<UspsFake>({
  name: 'USPS',
  type: 'usps',
  carrier: 'usps',
  start: () => startUspsFake(),
  credentials: (fake) => ({
    parameters: { baseUrl: fake.baseUrl, clientId: fake.clientId, requestsPerSecond: 1000 },
    secrets: { clientSecret: fake.clientSecret },
  }),
  number: uspsNumber,
  inTransit: {
    seed: (fake, number) => fake.setPackage(number, ON_ITS_WAY),
    status: 'delivery_in_progress',
    checkpoints: 2,
  },
  delivered: {
    seed: (fake, number) =>
      fake.setPackage(number, {
        ...ON_ITS_WAY,
        statusCategory: 'Delivered',
        events: [ACCEPTED, OUT_FOR_DELIVERY, DELIVERED],
      }),
    checkpoints: 3,
  },
  tokens: { issued: (fake) => fake.tokensIssued(), expire: (fake) => fake.expireTokens() },
  tracks: {
    title: 'tracks a USPS number: status, checkpoints, ETA; one token reused, renewed once expired',
    shipment: { expectedDeliveryDate: '2026-03-10T00:00:00+00:00' },
    checkpoints: [
      {
        info: 'USPS in possession of item',
        status: 'in_transit',
        rawStatus: '03 USPS in possession of item',
        location: 'SEATTLE, WA 98101',
        countryIso2: 'US',
        checkpointDate: '2026-03-08T07:31:00.000Z',
      },
      {
        info: 'Out for Delivery',
        status: 'delivery_in_progress',
        rawStatus: 'OF Out for Delivery',
        location: 'PALO ALTO, CA 94301',
        countryIso2: 'US',
        checkpointDate: '2026-03-10T14:10:00.000Z',
      },
    ],
  },
  // Its outage here is the throttle: a 429 whose Retry-After is the retry.
  outage: { fail: (fake) => fake.rateLimitNext(45), status: 429, retryAfterMs: 45_000 },
  rejected: {
    secrets: { clientSecret: 'revoked-secret-0000' },
    reason: /^usps rejected the credentials \(HTTP 401\)$/,
  },
});
