import {
  startFedexFake,
  type FedexFake,
  type FedexFakeScan,
  type FedexFakeShipment,
} from '../fakes/fedex-fake';
import { describeTrackingProvider, NOW } from './provider-e2e-harness';
import { formatNumber, getShipment, insertShipments } from './provider-e2e-support';

/** A valid FedEx Ground Economy (SmartPost) number, different on each call. */
const fedexNumber = () => formatNumber('fedex-smartpost-22');

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

describeTrackingProvider<FedexFake>(
  {
    name: 'FedEx',
    type: 'fedex',
    carrier: 'fedex',
    start: () => startFedexFake(),
    credentials: (fake) => ({
      parameters: { baseUrl: fake.baseUrl, clientId: fake.clientId, requestsPerSecond: 1000 },
      secrets: { clientSecret: fake.clientSecret },
    }),
    number: fedexNumber,
    inTransit: {
      seed: (fake, number) => fake.setShipment(number, HANDED_TO_USPS),
      status: 'in_transit',
      checkpoints: 2,
    },
    delivered: {
      seed: (fake, number) =>
        fake.setShipment(number, { ...HANDED_TO_USPS, scans: [PICKED_UP, AT_USPS, DELIVERED] }),
      checkpoints: 3,
    },
    lastMile: 'usps',
    tokens: { issued: (fake) => fake.tokensIssued(), expire: (fake) => fake.expireTokens() },
    tracks: {
      title:
        'tracks a Ground Economy number: status, checkpoints, ETA, USPS last mile; token renewed once',
      shipment: { expectedDeliveryDate: '2026-03-11T04:00:00+00:00' },
      checkpoints: [
        {
          info: 'Picked up',
          status: 'in_transit',
          rawStatus: 'PU/PU',
          location: 'DENVER, CO',
          checkpointDate: '2026-03-06T19:01:00.000Z',
        },
        {
          info: 'At USPS facility',
          status: 'in_transit',
          rawStatus: 'AX/IT',
          location: 'NEW YORK, NY',
          checkpointDate: '2026-03-09T09:40:00.000Z',
        },
      ],
    },
    outage: {
      fail: (fake) =>
        fake.server.failNext({
          status: 500,
          body: { errors: [{ code: 'INTERNAL.SERVER.ERROR' }] },
        }),
      status: 500,
    },
    rejected: {
      secrets: { clientSecret: 'revoked-secret-0000' },
      reason: /^fedex rejected the credentials \(HTTP 401\)$/,
    },
  },
  (ctx) => {
    it('asks 30 numbers per call with one token', async () => {
      const { app, fake, tenant } = ctx;
      const numbers = Array.from({ length: 31 }, () => fedexNumber());
      for (const n of numbers) fake.setShipment(n, HANDED_TO_USPS);
      const ids = await insertShipments(app, tenant.workspaceId, numbers, 'fedex', NOW);
      const tokensBefore = fake.tokensIssued();
      const batchesBefore = fake.trackBatches().length;
      const report = await ctx.trackMany(ids);
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
  },
);
