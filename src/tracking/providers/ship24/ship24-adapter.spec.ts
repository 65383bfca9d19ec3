import { fakeProviderContext } from '../../../../test/fakes/provider-call-context';
import { ship24Event, startShip24Fake, type Ship24Fake } from '../../../../test/fakes/ship24-fake';
import {
  ProviderCredentialsRejected,
  ProviderNumberNotRegistered,
  type ProviderCredentials,
} from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';
import { ship24Adapter } from './index';

describe('ship24Adapter against the Ship24 fake', () => {
  let fake: Ship24Fake;
  let credentials: ProviderCredentials;

  beforeEach(async () => {
    fake = await startShip24Fake();
    credentials = {
      id: 'cred-ship24',
      type: 'ship24',
      baseUrl: fake.baseUrl,
      parameters: {},
      secrets: { apiKey: fake.apiKey, webhookSecret: fake.webhookSecret },
    };
  });
  afterEach(() => fake.close());

  const ctx = () => fakeProviderContext(credentials);
  const register = ship24Adapter.register!.bind(ship24Adapter);
  const numbers = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      trackingNumber: `YT24${String(i).padStart(14, '0')}`,
      carrierCode: null,
    }));

  describe('register', () => {
    it('creates up to 100 trackers in one bulk request', async () => {
      const batch = numbers(100);
      const result = await register(ctx(), batch);
      const bulks = fake.server.calls('POST', '/public/v1/trackers/bulk');
      expect(bulks).toHaveLength(1);
      expect(bulks[0].headers.authorization).toBe(`Bearer ${fake.apiKey}`);
      expect(bulks[0].body).toEqual(batch.map((r) => ({ trackingNumber: r.trackingNumber })));
      expect([...result.values()].every((v) => v === null)).toBe(true);
      expect(result.size).toBe(100);
      expect(fake.trackings.size).toBe(100);
    });

    it('refuses more than 100 before asking, as Ship24 would', async () => {
      await expect(register(ctx(), numbers(101))).rejects.toMatchObject({ kind: 'permanent' });
      expect(fake.server.requests).toHaveLength(0);
    });

    it('counts existing trackers as registered and reports refused items (207)', async () => {
      fake.setTracking('YT2400000000000000', {});
      const result = await register(ctx(), [
        { trackingNumber: 'YT2400000000000000', carrierCode: null },
        { trackingNumber: 'no spaces allowed', carrierCode: null },
        { trackingNumber: '9400111899562537624326', carrierCode: 'usps' },
      ]);
      expect(result.get('YT2400000000000000')).toBeNull();
      expect(result.get('9400111899562537624326')).toBeNull();
      const refused = result.get('no spaces allowed');
      expect(refused).toBeInstanceOf(TrackingProviderError);
      expect(refused?.kind).toBe('permanent');
      // Our words in the message; the server's only in the operator's detail.
      expect(refused?.message).not.toContain('validation_error');
      expect(refused?.detail).toContain('validation_error');
    });

    it('reports every item when all are refused (400 with items)', async () => {
      const result = await register(ctx(), [{ trackingNumber: 'x', carrierCode: null }]);
      expect(result.get('x')?.kind).toBe('permanent');
    });

    it('throws ProviderCredentialsRejected on a wrong key (401 auth_invalid_api_key)', async () => {
      credentials = { ...credentials, secrets: { apiKey: 'apik_wrong' } };
      await expect(register(ctx(), numbers(1))).rejects.toBeInstanceOf(ProviderCredentialsRejected);
    });
  });

  describe('track', () => {
    it('reads each number and maps it, unknown numbers being "not registered"', async () => {
      fake.setTracking('YT2400000000000001', {
        courierCode: ['yunexpress'],
        shipment: { statusMilestone: 'delivered', destinationCountryCode: 'US' },
        events: [
          ship24Event({
            occurrenceDatetime: '2025-03-14T13:45:00-05:00',
            status: 'Delivered, Front Door/Porch',
            statusMilestone: 'delivered',
            statusCode: 'delivery_delivered',
            location: 'AUSTIN, TX, US',
            courierCode: 'us-post',
          }),
          ship24Event({
            occurrenceDatetime: '2025-03-02T10:00:00+08:00',
            status: 'Departed from facility',
            statusMilestone: 'in_transit',
            location: 'Shenzhen, China',
            courierCode: 'yunexpress',
          }),
        ],
      });
      const result = await ship24Adapter.track(ctx(), [
        { trackingNumber: 'YT2400000000000001', carrierCode: 'yunexpress' },
        { trackingNumber: 'YT2499999999999999', carrierCode: null },
      ]);
      const known = result.get('YT2400000000000001');
      expect(known).not.toBeInstanceOf(TrackingProviderError);
      expect(known).toMatchObject({
        checkpoints: [
          { status: 'in_transit', carrierCode: 'yunexpress', countryIso2: 'CN', rel: 'origin' },
          {
            status: 'delivered',
            rawStatus: 'delivered/delivery_delivered',
            checkpointDate: new Date('2025-03-14T18:45:00Z'),
            carrierCode: 'usps',
            rel: 'destination',
          },
        ],
        facts: { destinationCarrier: 'usps', destinationCountryIso2: 'US' },
      });
      expect(result.get('YT2499999999999999')).toBeInstanceOf(ProviderNumberNotRegistered);
    });

    it('stops the batch at a 429 and answers the Retry-After to the rest', async () => {
      for (const r of numbers(3)) fake.setTracking(r.trackingNumber, {});
      fake.rateLimitNext(7);
      const result = await ship24Adapter.track(ctx(), numbers(3));
      const outcomes = [...result.values()];
      expect(outcomes).toHaveLength(3);
      for (const outcome of outcomes) {
        expect(outcome).toBeInstanceOf(TrackingProviderError);
        expect(outcome).toMatchObject({ kind: 'transient', retryAfterMs: 7000 });
      }
      expect(fake.server.requests).toHaveLength(1);
    });

    it('answers transient errors when Ship24 is down', async () => {
      fake.setTracking('YT2400000000000000', {});
      fake.server.failNext({ status: 502, body: 'Bad Gateway' });
      const result = await ship24Adapter.track(ctx(), numbers(1));
      expect(result.get('YT2400000000000000')).toMatchObject({ kind: 'transient' });
    });

    it('throws ProviderCredentialsRejected on a wrong key', async () => {
      fake.setTracking('YT2400000000000000', {});
      credentials = { ...credentials, secrets: { apiKey: 'apik_wrong' } };
      await expect(ship24Adapter.track(ctx(), numbers(1))).rejects.toMatchObject({
        provider: 'ship24',
        status: 401,
      });
    });
  });

  describe('stop', () => {
    const stop = ship24Adapter.stop!.bind(ship24Adapter);

    it('unsubscribes the trackers of each number with PATCH {isSubscribed: false}', async () => {
      const [a, b] = numbers(2);
      const ta = fake.setTracking(a.trackingNumber, {});
      const tb = fake.setTracking(b.trackingNumber, {});
      const result = await stop(ctx(), [a, b]);
      expect([...result.entries()]).toEqual([
        [a.trackingNumber, null],
        [b.trackingNumber, null],
      ]);
      const patches = fake.trackerPatches();
      expect(patches.map((r) => [r.path, r.body, r.headers.authorization])).toEqual([
        [
          `/public/v1/trackers/${ta.tracker.trackerId}`,
          { isSubscribed: false },
          `Bearer ${fake.apiKey}`,
        ],
        [
          `/public/v1/trackers/${tb.tracker.trackerId}`,
          { isSubscribed: false },
          `Bearer ${fake.apiKey}`,
        ],
      ]);
      expect([ta.tracker.isSubscribed, tb.tracker.isSubscribed]).toEqual([false, false]);

      // Asked again: nothing left subscribed, nothing sent, still stopped.
      expect((await stop(ctx(), [a])).get(a.trackingNumber)).toBeNull();
      expect(fake.trackerPatches()).toHaveLength(2);
    });

    it('answers a permanent error for a number Ship24 has no tracker of', async () => {
      const [a, b] = numbers(2);
      fake.setTracking(b.trackingNumber, {});
      const result = await stop(ctx(), [a, b]);
      expect(result.get(a.trackingNumber)).toMatchObject({
        kind: 'permanent',
        message: `ship24 has no tracker of ${a.trackingNumber}`,
      });
      expect(result.get(b.trackingNumber)).toBeNull();
      expect(fake.trackerPatches()).toHaveLength(1);
    });

    it('ends the batch at a 429 (Retry-After for the rest), refuses a wrong key', async () => {
      for (const r of numbers(3)) fake.setTracking(r.trackingNumber, {});
      fake.rateLimitNext(9);
      const result = await stop(ctx(), numbers(3));
      for (const outcome of result.values()) {
        expect(outcome).toMatchObject({ kind: 'transient', retryAfterMs: 9000 });
      }
      expect(fake.server.requests).toHaveLength(1);

      credentials = { ...credentials, secrets: { apiKey: 'apik_wrong' } };
      await expect(stop(ctx(), numbers(1))).rejects.toBeInstanceOf(ProviderCredentialsRejected);
    });
  });

  describe('push', () => {
    const push = (delivery: { headers: Record<string, string>; body: string }) => ({
      headers: Object.fromEntries(
        Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v]),
      ),
      rawBody: Buffer.from(delivery.body),
    });

    it('accepts exactly the webhook secret as Bearer token', () => {
      const tracking = fake.setTracking('YT2400000000000000', {});
      expect(ship24Adapter.verifyPush!(credentials, push(fake.signedDelivery([tracking])))).toBe(
        true,
      );
      expect(
        ship24Adapter.verifyPush!(
          credentials,
          push(fake.signedDelivery([tracking], { secret: 'no' })),
        ),
      ).toBe(false);
      // The API key is not the webhook secret.
      expect(
        ship24Adapter.verifyPush!(
          credentials,
          push(fake.signedDelivery([tracking], { secret: fake.apiKey })),
        ),
      ).toBe(false);
      expect(
        ship24Adapter.verifyPush!(credentials, { headers: {}, rawBody: Buffer.from('{}') }),
      ).toBe(false);
      expect(
        ship24Adapter.verifyPush!(
          { ...credentials, secrets: { apiKey: fake.apiKey } },
          push(fake.signedDelivery([tracking])),
        ),
      ).toBe(false);
    });

    it('maps every tracking of a delivery, and nothing from garbage', () => {
      const a = fake.setTracking('YT2400000000000000', {
        courierCode: ['us-post'],
        events: [
          ship24Event({
            occurrenceDatetime: '2025-03-12T08:00:00Z',
            status: 'Out for delivery',
            statusMilestone: 'out_for_delivery',
            courierCode: 'us-post',
          }),
        ],
      });
      const b = fake.setTracking('YT2400000000000001', {});
      const updates = ship24Adapter.parsePush!(JSON.parse(fake.signedDelivery([a, b]).body));
      expect(
        updates.map((u) => [u.trackingNumber, u.carrierCode, u.result.checkpoints.length]),
      ).toEqual([
        ['YT2400000000000000', 'usps', 1],
        ['YT2400000000000001', null, 0],
      ]);
      expect(updates[0].result.checkpoints[0].status).toBe('delivery_in_progress');
      expect(ship24Adapter.parsePush!({ trackings: 'no' })).toEqual([]);
      expect(ship24Adapter.parsePush!(null)).toEqual([]);
      expect(
        ship24Adapter.parsePush!({ trackings: [{ ...a, metadata: { topic: 'tracking/pod' } }] }),
      ).toEqual([]);
    });
  });
});
