import {
  startDhlFake,
  type DhlFake,
  type DhlFakeEvent,
  type DhlFakeShipment,
} from '../fakes/dhl-fake';
import { describeTrackingProvider } from './provider-e2e-harness';
import { formatNumber } from './provider-e2e-support';

/** A valid 10-digit DHL Express waybill, different on each call. */
const waybill = () => formatNumber('dhl-express-10');

const PICKED_UP: DhlFakeEvent = {
  timestamp: '2026-03-08T22:41:00+08:00',
  statusCode: 'transit',
  status: 'Shipment picked up',
  addressLocality: 'HONG KONG - HONG KONG',
  countryCode: 'HK',
};
const WITH_COURIER: DhlFakeEvent = {
  timestamp: '2026-03-10T08:12:00+01:00',
  statusCode: 'transit',
  status: 'With delivery courier',
  addressLocality: 'LEIPZIG - GERMANY',
  countryCode: 'DE',
};
const DELIVERED: DhlFakeEvent = {
  timestamp: '2026-03-10T11:30:00+01:00',
  statusCode: 'delivered',
  status: 'Delivered',
  addressLocality: 'LEIPZIG - GERMANY',
  countryCode: 'DE',
};
const EXPRESS: DhlFakeShipment = {
  service: 'express',
  originCountryCode: 'HK',
  destinationCountryCode: 'DE',
  estimatedTimeOfDelivery: '2026-03-10T18:00:00+01:00',
  events: [PICKED_UP, WITH_COURIER],
};

describeTrackingProvider<DhlFake>({
  name: 'DHL',
  type: 'dhl',
  carrier: 'dhl',
  start: () => startDhlFake(),
  credentials: (fake) => ({
    parameters: { baseUrl: fake.baseUrl, requestsPerSecond: 1000 },
    secrets: { apiKey: fake.apiKey },
  }),
  number: waybill,
  inTransit: {
    seed: (fake, number) => fake.setShipments(number, [EXPRESS]),
    status: 'delivery_in_progress',
    checkpoints: 2,
  },
  delivered: {
    seed: (fake, number) =>
      fake.setShipments(number, [{ ...EXPRESS, events: [PICKED_UP, WITH_COURIER, DELIVERED] }]),
    checkpoints: 3,
  },
  tracks: {
    title: 'tracks an Express waybill: status, checkpoints with offsets, countries, ETA',
    shipment: {
      originCountryIso2: 'HK',
      destinationCountryIso2: 'DE',
      expectedDeliveryDate: '2026-03-10T17:00:00+00:00',
    },
    checkpoints: [
      {
        info: 'Shipment picked up',
        status: 'in_transit',
        rawStatus: 'transit/Shipment picked up',
        carrier: 'dhl',
        location: 'HONG KONG - HONG KONG',
        countryIso2: 'HK',
        checkpointDate: '2026-03-08T14:41:00.000Z',
      },
      {
        info: 'With delivery courier',
        status: 'delivery_in_progress',
        rawStatus: 'transit/With delivery courier',
        carrier: 'dhl',
        location: 'LEIPZIG - GERMANY',
        countryIso2: 'DE',
        checkpointDate: '2026-03-10T07:12:00.000Z',
      },
    ],
    check: ({ fake }, { number }) => {
      const [call] = fake.trackCalls().filter((r) => r.query.get('trackingNumber') === number);
      expect(call.headers['dhl-api-key']).toBe(fake.apiKey);
    },
  },
  outage: {
    fail: (fake) => fake.server.failNext({ status: 502, body: 'Bad Gateway' }),
    status: 502,
  },
  rateLimit: {
    title: 'honours the quota 429 Retry-After and asks DHL nothing more in that round',
    count: 3,
    limit: (fake) => fake.rateLimitNext(600),
    retryAfterMs: 600_000,
  },
  rejected: {
    title: 'flags a rejected API key, notifies the team once and stops asking',
    secrets: { apiKey: 'revoked-key-000000' },
    reason: /HTTP 401/,
  },
});
