import {
  easyPostDetail,
  startEasyPostFake,
  type EasyPostFake,
} from '../../../../test/fakes/easypost-fake';
import { fakeProviderContext } from '../../../../test/fakes/provider-call-context';
import {
  ProviderCredentialsRejected,
  ProviderNumberNotRegistered,
  type ProviderCredentials,
} from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';
import { easypostAdapter } from './index';

describe('easypostAdapter against the EasyPost fake', () => {
  let fake: EasyPostFake;
  let credentials: ProviderCredentials;

  beforeEach(async () => {
    fake = await startEasyPostFake();
    credentials = {
      id: 'cred-easypost',
      type: 'easypost',
      baseUrl: fake.baseUrl,
      parameters: {},
      secrets: { apiKey: fake.apiKey, webhookSecret: fake.webhookSecret },
    };
  });
  afterEach(() => fake.close());

  const ctx = () => fakeProviderContext(credentials);
  const register = easypostAdapter.register!.bind(easypostAdapter);

  describe('register', () => {
    it('creates one tracker per code with HTTP Basic and our carrier', async () => {
      const result = await register(ctx(), [
        { trackingNumber: '9400111899562537624326', carrierCode: 'usps' },
        { trackingNumber: '1Z999AA10123456784', carrierCode: null },
      ]);
      expect([...result.values()]).toEqual([null, null]);
      const posts = fake.server.calls('POST', '/v2/trackers');
      expect(posts.map((p) => p.body)).toEqual([
        { tracker: { tracking_code: '9400111899562537624326', carrier: 'USPS' } },
        { tracker: { tracking_code: '1Z999AA10123456784' } },
      ]);
      expect(posts[0].headers.authorization).toBe(
        `Basic ${Buffer.from(`${fake.apiKey}:`).toString('base64')}`,
      );
      expect(fake.trackers.map((t) => t.carrier)).toEqual(['USPS', 'UPS']);
    });

    it('takes the original of a duplicate, and retries a refused carrier without it', async () => {
      fake.setTracker({ tracking_code: '9400111899562537624326', carrier: 'USPS' });
      const result = await register(ctx(), [
        { trackingNumber: '9400111899562537624326', carrierCode: 'usps' },
        { trackingNumber: 'JJD000390007880188', carrierCode: 'yodel' },
      ]);
      expect([...result.values()]).toEqual([null, null]);
      expect(fake.trackers).toHaveLength(2);
      expect(
        fake.server
          .calls('POST', '/v2/trackers')
          .slice(1)
          .map((p) => p.body),
      ).toEqual([
        { tracker: { tracking_code: 'JJD000390007880188', carrier: 'Yodel' } },
        { tracker: { tracking_code: 'JJD000390007880188' } },
      ]);
    });

    it('answers a permanent error for a code EasyPost refuses', async () => {
      const result = await register(ctx(), [{ trackingNumber: 'no!', carrierCode: null }]);
      expect(result.get('no!')).toMatchObject({ kind: 'permanent' });
      // Our words in the message; the server's only in the operator's detail.
      expect(result.get('no!')?.message).not.toContain('TRACKER.TRACKING_CODE.INVALID');
      expect(result.get('no!')?.detail).toContain('TRACKER.TRACKING_CODE.INVALID');
    });

    it('throws ProviderCredentialsRejected on a wrong key', async () => {
      credentials = { ...credentials, secrets: { apiKey: 'EZTKwrong' } };
      await expect(
        register(ctx(), [{ trackingNumber: '9400111899562537624326', carrierCode: 'usps' }]),
      ).rejects.toBeInstanceOf(ProviderCredentialsRejected);
    });
  });

  describe('track', () => {
    it('reads a batch of 100 in one request (repeated tracking_codes[]) and maps it', async () => {
      const codes = Array.from(
        { length: 100 },
        (_, i) => `94001118995625376${String(i).padStart(5, '0')}`,
      );
      for (const code of codes) fake.setTracker({ tracking_code: code, carrier: 'USPS' });
      fake.setTracker({
        tracking_code: codes[3],
        carrier: 'USPS',
        status: 'delivered',
        est_delivery_date: '2025-03-12T00:00:00Z',
        tracking_details: [
          easyPostDetail({
            datetime: '2025-03-12T14:02:00-05:00',
            message: 'Delivered, In/At Mailbox',
            status: 'delivered',
            status_detail: 'arrived_at_destination',
            city: 'AUSTIN',
            state: 'TX',
            country: 'US',
          }),
        ],
      });
      const result = await easypostAdapter.track(
        ctx(),
        codes.map((trackingNumber) => ({ trackingNumber, carrierCode: 'usps' })),
      );
      const gets = fake.server.calls('GET', '/v2/trackers');
      expect(gets).toHaveLength(1);
      expect(gets[0].query.getAll('tracking_codes[]')).toEqual(codes);
      expect(result.size).toBe(100);
      expect(result.get(codes[3])).toMatchObject({
        checkpoints: [
          {
            // A detail word that only says where: the delivered status stands.
            status: 'delivered',
            rawStatus: 'delivered/arrived_at_destination',
            checkpointDate: new Date('2025-03-12T19:02:00Z'),
            location: 'AUSTIN, TX',
            countryIso2: 'US',
            carrierCode: 'usps',
          },
        ],
        facts: { expectedDeliveryDate: new Date('2025-03-12T00:00:00Z') },
      });
    });

    it('follows has_more pages and picks the requested carrier of several trackers', async () => {
      const codes = Array.from({ length: 60 }, (_, i) => `1Z999AA1012345${String(6700 + i)}`);
      for (const code of codes) {
        fake.setTracker({ tracking_code: code, carrier: 'UPS', status: 'in_transit' });
        fake.setTracker({ tracking_code: code, carrier: 'USPS', status: 'delivered' });
      }
      const result = await easypostAdapter.track(
        ctx(),
        codes.map((trackingNumber) => ({ trackingNumber, carrierCode: 'ups' })),
      );
      expect(fake.server.calls('GET', '/v2/trackers')).toHaveLength(2);
      expect(fake.server.calls('GET', '/v2/trackers')[1].query.get('before_id')).toMatch(/^trk_/);
      for (const code of codes) expect(result.get(code)).toMatchObject({ checkpoints: [] });
      expect(result.size).toBe(60);
    });

    it('answers "not registered" for a code EasyPost has no tracker of', async () => {
      const result = await easypostAdapter.track(ctx(), [
        { trackingNumber: '9400111899562537624326', carrierCode: 'usps' },
      ]);
      expect(result.get('9400111899562537624326')).toBeInstanceOf(ProviderNumberNotRegistered);
    });

    it('throws transient errors on 429 (with Retry-After) and when EasyPost is down', async () => {
      fake.rateLimitNext(9);
      const limited = await easypostAdapter
        .track(ctx(), [{ trackingNumber: '9400111899562537624326', carrierCode: 'usps' }])
        .catch((e: unknown) => e);
      expect(limited).toBeInstanceOf(TrackingProviderError);
      expect(limited).toMatchObject({ kind: 'transient', retryAfterMs: 9000 });
      fake.server.failNext({ status: 500, body: { error: { code: 'INTERNAL_SERVER_ERROR' } } });
      await expect(
        easypostAdapter.track(ctx(), [
          { trackingNumber: '9400111899562537624326', carrierCode: null },
        ]),
      ).rejects.toMatchObject({ kind: 'transient' });
    });
  });

  describe('push', () => {
    const push = (delivery: { headers: Record<string, string>; body: string }) => ({
      headers: Object.fromEntries(
        Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v]),
      ),
      rawBody: Buffer.from(delivery.body),
    });

    it('verifies X-Hmac-Signature over the raw body with the NFKD secret', () => {
      const tracker = fake.setTracker({ tracking_code: '9400111899562537624326', carrier: 'USPS' });
      const good = push(fake.signedDelivery(tracker));
      expect(easypostAdapter.verifyPush!(credentials, good)).toBe(true);
      // The same secret in another Unicode form signs the same.
      const composed = {
        ...credentials,
        secrets: { webhookSecret: fake.webhookSecret.normalize('NFC') },
      };
      const decomposed = {
        ...credentials,
        secrets: { webhookSecret: fake.webhookSecret.normalize('NFD') },
      };
      expect(easypostAdapter.verifyPush!(composed, good)).toBe(true);
      expect(easypostAdapter.verifyPush!(decomposed, good)).toBe(true);
      expect(
        easypostAdapter.verifyPush!(
          credentials,
          push(fake.signedDelivery(tracker, { secret: 'x' })),
        ),
      ).toBe(false);
      expect(
        easypostAdapter.verifyPush!(credentials, {
          ...good,
          rawBody: Buffer.concat([good.rawBody, Buffer.from(' ')]),
        }),
      ).toBe(false);
      expect(easypostAdapter.verifyPush!(credentials, { ...good, headers: {} })).toBe(false);
    });

    it('maps tracker Events, and nothing from other events or garbage', () => {
      const tracker = fake.setTracker({
        tracking_code: '9400111899562537624326',
        carrier: 'USPS',
        tracking_details: [
          easyPostDetail({
            datetime: '2025-03-12T08:00:00Z',
            message: 'Out for Delivery',
            status: 'out_for_delivery',
            status_detail: 'out_for_delivery',
          }),
        ],
      });
      const updates = easypostAdapter.parsePush!(JSON.parse(fake.signedDelivery(tracker).body));
      expect(updates).toMatchObject([
        {
          trackingNumber: '9400111899562537624326',
          carrierCode: 'usps',
          result: { checkpoints: [{ status: 'delivery_in_progress' }] },
        },
      ]);
      const other = JSON.parse(fake.signedDelivery(tracker, { description: 'batch.updated' }).body);
      expect(easypostAdapter.parsePush!(other)).toEqual([]);
      expect(easypostAdapter.parsePush!([1, 2])).toEqual([]);
      expect(easypostAdapter.parsePush!({ description: 'tracker.updated', result: 'x' })).toEqual(
        [],
      );
    });
  });
});
