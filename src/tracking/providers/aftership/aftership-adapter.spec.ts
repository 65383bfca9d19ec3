import { startAfterShipFake, type AfterShipFake } from '../../../../test/fakes/aftership-fake';
import { fakeProviderContext } from '../../../../test/fakes/provider-call-context';
import {
  ProviderCredentialsRejected,
  ProviderNumberNotRegistered,
  type ProviderCredentials,
} from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';
import { aftershipAdapter } from './index';

describe('aftershipAdapter against the AfterShip fake', () => {
  let fake: AfterShipFake;
  let credentials: ProviderCredentials;

  beforeEach(async () => {
    fake = await startAfterShipFake();
    credentials = {
      id: 'cred-aftership',
      type: 'aftership',
      baseUrl: fake.baseUrl,
      parameters: {},
      secrets: { apiKey: fake.apiKey, webhookSecret: fake.webhookSecret },
    };
  });
  afterEach(() => fake.close());

  const ctx = () => fakeProviderContext(credentials);
  const register = aftershipAdapter.register!.bind(aftershipAdapter);

  describe('register', () => {
    it('creates one flat tracking per number, with our carrier as slug', async () => {
      const result = await register(ctx(), [
        { trackingNumber: '1Z999AA10123456784', carrierCode: 'ups' },
        { trackingNumber: 'LX123456789CN', carrierCode: null },
      ]);
      expect([...result]).toEqual([
        ['1Z999AA10123456784', null],
        ['LX123456789CN', null],
      ]);
      const posts = fake.server.calls('POST', '/tracking/2025-01/trackings');
      expect(posts.map((p) => p.body)).toEqual([
        { tracking_number: '1Z999AA10123456784', slug: 'ups' },
        { tracking_number: 'LX123456789CN' },
      ]);
      expect(posts[0].headers['as-api-key']).toBe(fake.apiKey);
      expect(fake.findTracking('LX123456789CN')?.slug).toBe('china-post');
    });

    it('takes "already exists" (4003) as registered', async () => {
      fake.setTracking({ tracking_number: '1Z999AA10123456784', slug: 'ups' });
      const result = await register(ctx(), [
        { trackingNumber: '1Z999AA10123456784', carrierCode: 'ups' },
      ]);
      expect(result.get('1Z999AA10123456784')).toBeNull();
      expect(fake.trackings).toHaveLength(1);
    });

    it('lets AfterShip detect the courier when it refuses our slug (4010)', async () => {
      const result = await register(ctx(), [
        { trackingNumber: 'JJD000390007880188', carrierCode: 'yodel' },
      ]);
      expect(result.get('JJD000390007880188')).toBeNull();
      expect(fake.server.calls('POST', '/tracking/2025-01/trackings').map((p) => p.body)).toEqual([
        { tracking_number: 'JJD000390007880188', slug: 'yodel' },
        { tracking_number: 'JJD000390007880188' },
      ]);
    });

    it('answers a permanent error for a number AfterShip refuses, the others registered', async () => {
      const result = await register(ctx(), [
        { trackingNumber: 'BAD NUMBER!', carrierCode: null },
        { trackingNumber: '9400111899562537624326', carrierCode: 'usps' },
      ]);
      const error = result.get('BAD NUMBER!');
      expect(error).toBeInstanceOf(TrackingProviderError);
      expect(error?.kind).toBe('permanent');
      // Our words in the message; the server's only in the operator's detail.
      expect(error?.message).not.toContain('4017');
      expect(error?.detail).toContain('4017');
      expect(result.get('9400111899562537624326')).toBeNull();
    });
  });

  describe('track', () => {
    it('reads a whole batch in one list request and maps each tracking', async () => {
      const numbers = Array.from(
        { length: 50 },
        (_, i) => `9400111899562537${String(i).padStart(6, '0')}`,
      );
      for (const n of numbers) fake.setTracking({ tracking_number: n, slug: 'usps' });
      fake.setTracking({
        tracking_number: numbers[7],
        slug: 'usps',
        tag: 'Delivered',
        subtag: 'Delivered_001',
        checkpoints: [
          {
            slug: 'usps',
            checkpoint_time: '2025-03-12T14:02:00-05:00',
            message: 'Delivered, In/At Mailbox',
            location: 'AUSTIN, TX',
            country_region: 'USA',
            tag: 'Delivered',
            subtag: 'Delivered_001',
          },
        ],
      });
      const result = await aftershipAdapter.track(
        ctx(),
        numbers.map((trackingNumber) => ({ trackingNumber, carrierCode: 'usps' })),
      );
      const gets = fake.server.calls('GET', '/tracking/2025-01/trackings');
      expect(gets).toHaveLength(1);
      expect(gets[0].query.get('tracking_numbers')?.split(',')).toEqual(numbers);
      expect(result.size).toBe(50);
      const delivered = result.get(numbers[7]);
      expect(delivered).not.toBeInstanceOf(TrackingProviderError);
      if (delivered instanceof TrackingProviderError || delivered === undefined) return;
      expect(delivered.checkpoints).toMatchObject([
        {
          status: 'delivered',
          rawStatus: 'Delivered/Delivered_001',
          checkpointDate: new Date('2025-03-12T19:02:00Z'),
          info: 'Delivered, In/At Mailbox',
          location: 'AUSTIN, TX',
          countryIso2: 'US',
          carrierCode: 'usps',
        },
      ]);
      expect(result.get(numbers[0])).toEqual(expect.objectContaining({ checkpoints: [] }));
    });

    it('follows the pagination and picks the tracking of the requested courier', async () => {
      const numbers = Array.from({ length: 45 }, (_, i) => `LX${String(100000000 + i)}CN`);
      for (const n of numbers) {
        for (const slug of ['china-post', 'china-ems', 'usps', 'ups', 'dhl']) {
          fake.setTracking({ tracking_number: n, slug, subtag_message: slug });
        }
      }
      fake.setTracking({
        tracking_number: numbers[44],
        slug: 'china-ems',
        updated_at: '2099-01-01T00:00:00Z',
        checkpoints: [
          { checkpoint_time: '2025-01-02T03:04:05Z', message: 'EMS', tag: 'InTransit' },
        ],
      });
      const result = await aftershipAdapter.track(
        ctx(),
        numbers.map((trackingNumber) => ({ trackingNumber, carrierCode: 'china-post' })),
      );
      expect(fake.server.calls('GET', '/tracking/2025-01/trackings').length).toBeGreaterThan(1);
      const outcome = result.get(numbers[44]);
      expect(outcome).not.toBeInstanceOf(TrackingProviderError);
      // china-ems and china-post are both China Post for us; the latest updated one wins.
      expect(outcome && 'checkpoints' in outcome && outcome.checkpoints[0]?.info).toBe('EMS');
    });

    it('answers "not registered" for a number AfterShip does not track', async () => {
      const result = await aftershipAdapter.track(ctx(), [
        { trackingNumber: '1Z999AA10123456784', carrierCode: 'ups' },
      ]);
      const outcome = result.get('1Z999AA10123456784');
      expect(outcome).toBeInstanceOf(ProviderNumberNotRegistered);
      expect((outcome as TrackingProviderError).transient).toBe(true);
    });

    it('throws ProviderCredentialsRejected on a wrong key (401)', async () => {
      credentials = { ...credentials, secrets: { apiKey: 'wrong' } };
      const attempt = aftershipAdapter.track(ctx(), [
        { trackingNumber: '1Z999AA10123456784', carrierCode: 'ups' },
      ]);
      await expect(attempt).rejects.toBeInstanceOf(ProviderCredentialsRejected);
      await expect(attempt).rejects.toMatchObject({ provider: 'aftership', status: 401 });
    });

    it('throws a transient error with the reset delay on 429', async () => {
      fake.rateLimitNext(3);
      const attempt = aftershipAdapter.track(ctx(), [
        { trackingNumber: '1Z999AA10123456784', carrierCode: 'ups' },
      ]);
      await expect(attempt).rejects.toMatchObject({ kind: 'transient' });
      const error = (await attempt.catch((e: unknown) => e)) as TrackingProviderError;
      expect(error.retryAfterMs).toBeGreaterThan(1000);
      expect(error.retryAfterMs).toBeLessThanOrEqual(4000);
    });

    it('prefers a Retry-After, and backs off a minute on a bare 429', async () => {
      const track = () =>
        aftershipAdapter
          .track(ctx(), [{ trackingNumber: '1Z999AA10123456784', carrierCode: 'ups' }])
          .catch((e: unknown) => e);
      fake.server.failNext({ status: 429, headers: { 'Retry-After': '5' }, body: {} });
      expect(await track()).toMatchObject({ kind: 'transient', retryAfterMs: 5000 });
      fake.server.failNext({ status: 429, body: { meta: { code: 429 }, data: {} } });
      expect(await track()).toMatchObject({ kind: 'transient', retryAfterMs: 60_000 });
    });

    it('throws a transient error when AfterShip is down', async () => {
      fake.server.failNext({ status: 503, body: { meta: { code: 503 }, data: {} } });
      await expect(
        aftershipAdapter.track(ctx(), [
          { trackingNumber: '1Z999AA10123456784', carrierCode: 'ups' },
        ]),
      ).rejects.toMatchObject({ kind: 'transient' });
    });
  });

  describe('stop', () => {
    it('completes only active trackings AfterShip itself reports final', async () => {
      const delivered = fake.setTracking({
        tracking_number: '9400111899562537624326',
        slug: 'usps',
        tag: 'Delivered',
        subtag: 'Delivered_001',
      });
      fake.setTracking({ tracking_number: '1Z999AA10123456784', slug: 'ups', tag: 'InTransit' });
      fake.setTracking({
        tracking_number: 'LX123456789CN',
        slug: 'china-post',
        tag: 'Delivered',
        active: false,
      });
      const result = await aftershipAdapter.stop!(ctx(), [
        { trackingNumber: '9400111899562537624326', carrierCode: 'usps' },
        { trackingNumber: '1Z999AA10123456784', carrierCode: 'ups' },
        { trackingNumber: 'LX123456789CN', carrierCode: 'china-post' },
      ]);
      const completions = fake.server.requests.filter((r) => r.path.endsWith('/mark-as-completed'));
      expect(completions.map((r) => [r.path, r.body])).toEqual([
        [`/tracking/2025-01/trackings/${delivered.id}/mark-as-completed`, { reason: 'DELIVERED' }],
      ]);
      expect(fake.findTracking('9400111899562537624326')?.active).toBe(false);
      // Completed, or nothing left to complete: stopped, all three.
      expect([...result.values()]).toEqual([null, null, null]);
    });
  });

  describe('push', () => {
    const push = (delivery: { headers: Record<string, string>; body: string }) => ({
      headers: Object.fromEntries(
        Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v]),
      ),
      rawBody: Buffer.from(delivery.body),
    });

    it('verifies the aftership-hmac-sha256 signature over the raw body', () => {
      const tracking = fake.setTracking({ tracking_number: '1Z999AA10123456784', slug: 'ups' });
      const good = push(fake.signedDelivery(tracking));
      expect(aftershipAdapter.verifyPush!(credentials, good)).toBe(true);
      expect(
        aftershipAdapter.verifyPush!(
          credentials,
          push(fake.signedDelivery(tracking, { secret: 'x' })),
        ),
      ).toBe(false);
      expect(
        aftershipAdapter.verifyPush!(credentials, {
          ...good,
          rawBody: Buffer.from(good.rawBody.toString().replace('1Z999', '1Z998')),
        }),
      ).toBe(false);
      expect(aftershipAdapter.verifyPush!(credentials, { ...good, headers: {} })).toBe(false);
      expect(
        aftershipAdapter.verifyPush!({ ...credentials, secrets: { apiKey: fake.apiKey } }, good),
      ).toBe(false);
    });

    it('maps a tracking_update delivery, and ignores other events and garbage', () => {
      const tracking = fake.setTracking({
        tracking_number: '1Z999AA10123456784',
        slug: 'ups',
        checkpoints: [
          {
            slug: 'ups',
            checkpoint_time: '2025-03-12T09:00:00+01:00',
            message: 'Out For Delivery Today',
            tag: 'OutForDelivery',
            subtag: 'OutForDelivery_001',
            country_region: 'DEU',
          },
        ],
      });
      const updates = aftershipAdapter.parsePush!(JSON.parse(fake.signedDelivery(tracking).body));
      expect(updates).toMatchObject([
        {
          trackingNumber: '1Z999AA10123456784',
          carrierCode: 'ups',
          result: {
            checkpoints: [
              {
                status: 'delivery_in_progress',
                checkpointDate: new Date('2025-03-12T08:00:00Z'),
                countryIso2: 'DE',
              },
            ],
          },
        },
      ]);
      const pending = JSON.parse(
        fake.signedDelivery(tracking, { event: 'tracking_pending_time' }).body,
      );
      expect(aftershipAdapter.parsePush!(pending)).toEqual([]);
      expect(aftershipAdapter.parsePush!('nonsense')).toEqual([]);
      expect(aftershipAdapter.parsePush!({ event: 'tracking_update', msg: [] })).toEqual([]);
    });
  });
});
