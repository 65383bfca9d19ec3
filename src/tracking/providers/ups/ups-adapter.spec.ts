import { ThrottlerStorageService } from '@nestjs/throttler';
import {
  startUpsFake,
  UPS_FAKE_SUBSCRIPTION_PREFIX,
  upsFakeAlertEvent,
  type UpsFake,
  type UpsFakeActivity,
} from '../../../../test/fakes/ups-fake';
import { FetchProviderHttp } from '../remote/fetch-provider-http';
import {
  ProviderCredentialsRejected,
  type ProviderCallContext,
  type ProviderCredentials,
} from '../remote/provider-adapter';
import { ProviderRateLimiter } from '../remote/provider-rate-limiter';
import { MemoryProviderTokenCache } from '../remote/provider-token-cache';
import type { TrackingResult } from '../tracking-provider';
import { TrackingProviderError } from '../tracking-provider-error';
import { upsAdapter } from './ups-adapter';
import { issueUpsPushToken } from './ups-push-token';
import { UPS_TRACK_ALERT_PATH, upsTrackAlert } from './ups-track-alert';

const NUMBER = '1Z204W4R0308071865';
const OTHER = '1ZABCXYZ0112346789';
const ACTIVITIES: UpsFakeActivity[] = [
  {
    at: '2024-04-22T09:12:30-04:00',
    type: 'M',
    code: 'MP',
    statusCode: '003',
    description: 'Shipment Ready for UPS',
  },
  {
    at: '2024-04-22T21:29:01-04:00',
    type: 'I',
    code: 'OR',
    statusCode: '005',
    description: 'On the Way',
    city: 'Hickory',
    stateProvince: 'NC',
  },
  {
    at: '2024-04-23T09:15:19-04:00',
    type: 'I',
    code: 'OT',
    statusCode: '021',
    description: 'Out for Delivery',
    city: 'Charlotte',
    stateProvince: 'NC',
  },
];

describe('UPS adapter against the UPS fake', () => {
  let fake: UpsFake;
  let storage: ThrottlerStorageService;
  let tokens: MemoryProviderTokenCache;

  const credentials = (over: Partial<ProviderCredentials> = {}): ProviderCredentials => ({
    id: 'ups-creds',
    type: 'ups',
    baseUrl: fake.baseUrl,
    parameters: { clientId: fake.clientId },
    secrets: { clientSecret: fake.clientSecret, webhookSecret: 'opaque-credential' },
    ...over,
  });
  const context = (creds = credentials()): ProviderCallContext => ({
    credentials: creds,
    http: new FetchProviderHttp({
      provider: 'ups',
      budgetKey: creds.id,
      requestsPerSecond: 1000,
      timeoutMs: 5000,
      limiter: new ProviderRateLimiter(storage),
    }),
    tokens,
    now: new Date('2024-04-23T14:00:00Z'),
  });
  const track = (ctx: ProviderCallContext, ...numbers: string[]) =>
    upsAdapter.track(
      ctx,
      numbers.map((trackingNumber) => ({ trackingNumber, carrierCode: 'ups' })),
    );
  const result = (outcome: unknown): TrackingResult => {
    if (outcome instanceof Error || outcome === undefined) throw outcome ?? new Error('none');
    return outcome as TrackingResult;
  };

  beforeEach(async () => {
    fake = await startUpsFake();
    storage = new ThrottlerStorageService();
    tokens = new MemoryProviderTokenCache();
    fake.setPackage(NUMBER, {
      activities: ACTIVITIES,
      scheduledDelivery: '20240423',
      uspsPic: '92419900000033499522966220',
    });
  });

  afterEach(async () => {
    storage.onApplicationShutdown();
    await fake.close();
  });

  it('declares one number per call, the UPS carrier and production host', () => {
    expect(upsAdapter.type).toBe('ups');
    expect(upsAdapter.maxBatchSize).toBe(1);
    expect(upsAdapter.carriers).toEqual(['ups']);
    expect(upsAdapter.defaultBaseUrl).toBe('https://onlinetools.ups.com');
  });

  it('gets a token with Basic client credentials and tracks with the required headers', async () => {
    const answers = await track(context(), NUMBER);
    const [tokenCall] = fake.server.calls('POST', '/security/v1/oauth/token');
    expect(tokenCall.headers.authorization).toBe(
      `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`,
    );
    expect(tokenCall.body).toEqual({ grant_type: 'client_credentials' });
    const [trackCall] = fake.trackCalls();
    expect(trackCall.path).toBe(`/api/track/v1/details/${NUMBER}`);
    expect(trackCall.headers.authorization).toMatch(/^Bearer \S+$/);
    expect(trackCall.headers.transid).toMatch(/^[0-9a-f]{32}$/);
    expect(trackCall.headers.transactionsrc).toBe('shipment-tracking');
    expect(trackCall.query.get('locale')).toBe('en_US');

    const tracked = result(answers.get(NUMBER));
    expect(tracked.checkpoints.map((c) => [c.status, c.checkpointDate.toISOString()])).toEqual([
      ['delivery_in_progress', '2024-04-23T13:15:19.000Z'],
      ['in_transit', '2024-04-23T01:29:01.000Z'],
      ['pre_transit', '2024-04-22T13:12:30.000Z'],
    ]);
    expect(tracked.checkpoints[0]).toMatchObject({
      info: 'Out for Delivery',
      location: 'Charlotte, NC',
      countryIso2: 'US',
      rawStatus: 'I/OT/021',
    });
    expect(tracked.facts).toMatchObject({
      expectedDeliveryDate: new Date('2024-04-23T00:00:00Z'),
      destinationCarrier: 'usps',
    });
  });

  it('reuses the token across calls and sends a new transId each time', async () => {
    const ctx = context();
    await track(ctx, NUMBER);
    await track(ctx, NUMBER);
    expect(fake.tokensIssued()).toBe(1);
    const ids = fake.trackCalls().map((c) => c.headers.transid);
    expect(new Set(ids).size).toBe(2);
  });

  it('renews an expired token once and repeats the call', async () => {
    const ctx = context();
    await track(ctx, NUMBER);
    fake.expireTokens();
    const answers = await track(ctx, NUMBER);
    expect(result(answers.get(NUMBER)).checkpoints).toHaveLength(3);
    expect(fake.tokensIssued()).toBe(2);
    expect(fake.trackCalls().map((c) => c.path)).toHaveLength(3);
  });

  it('reports the credentials as rejected when even a fresh token is refused', async () => {
    fake.refuseTokens();
    await expect(track(context(), NUMBER)).rejects.toBeInstanceOf(ProviderCredentialsRejected);
    expect(fake.tokensIssued()).toBe(2);
    expect(fake.trackCalls()).toHaveLength(2);
  });

  it('reports a wrong client secret as rejected credentials, without calling Track', async () => {
    const ctx = context(credentials({ secrets: { clientSecret: 'wrong' } }));
    const error: unknown = await track(ctx, NUMBER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCredentialsRejected);
    expect((error as ProviderCredentialsRejected).status).toBe(401);
    // Our words in the message; the server's only in the operator's detail.
    expect((error as Error).message).not.toContain('ClientId is Invalid');
    expect((error as ProviderCredentialsRejected).detail).toContain('ClientId is Invalid');
    expect(fake.trackCalls()).toHaveLength(0);
  });

  it('reports credentials without a secret as rejected, without calling UPS', async () => {
    const ctx = context(credentials({ secrets: {} }));
    await expect(track(ctx, NUMBER)).rejects.toBeInstanceOf(ProviderCredentialsRejected);
    expect(fake.server.requests).toHaveLength(0);
  });

  it('reads 404 Tracking Information Not Found as nothing known yet', async () => {
    fake.setPackage(OTHER, null);
    const answers = await track(context(), OTHER);
    expect(answers.get(OTHER)).toEqual({ checkpoints: [], facts: {} });
  });

  it('throws 429 as transient with the Retry-After delay, and 5xx as transient', async () => {
    const ctx = context();
    await track(ctx, NUMBER);
    fake.rateLimitNext(7);
    const limited: unknown = await track(ctx, NUMBER).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(TrackingProviderError);
    expect((limited as TrackingProviderError).transient).toBe(true);
    expect((limited as TrackingProviderError).retryAfterMs).toBe(7000);
    fake.server.failNext({ status: 503, body: { response: { errors: [{ code: '10004' }] } } });
    const down: unknown = await track(ctx, NUMBER).catch((e: unknown) => e);
    expect((down as TrackingProviderError).transient).toBe(true);
  });

  it('keeps answered numbers of a call when a later one is rate limited', async () => {
    const ctx = context();
    await track(ctx, NUMBER);
    fake.setPackage(OTHER, { activities: ACTIVITIES.slice(0, 1) });
    fake.server.on('GET', `/api/track/v1/details/${OTHER}`, () => ({
      status: 429,
      body: { response: { errors: [{ code: '10429', message: 'Too Many Requests' }] } },
      headers: { 'Retry-After': '3' },
    }));
    const answers = await track(ctx, NUMBER, OTHER);
    expect(result(answers.get(NUMBER)).checkpoints).toHaveLength(3);
    expect((answers.get(OTHER) as TrackingProviderError).retryAfterMs).toBe(3000);
  });

  it('gives a number UPS refuses (400) a permanent error of its own', async () => {
    const ctx = context();
    await track(ctx, NUMBER);
    fake.server.failNext({
      status: 400,
      body: { response: { errors: [{ code: 'TV1002', message: 'Invalid inquiry number' }] } },
    });
    const answers = await track(ctx, 'BADNUMBER1');
    const error = answers.get('BADNUMBER1') as TrackingProviderError;
    expect(error).toBeInstanceOf(TrackingProviderError);
    expect(error.kind).toBe('permanent');
    // Our words in the message; the server's only in the operator's detail.
    expect(error?.message).not.toContain('TV1002');
    expect(error?.detail).toContain('TV1002');
  });

  describe('Track Alert v2 subscription', () => {
    const request = (trackingNumber: string) => ({ trackingNumber, carrierCode: 'ups' });

    it('takes 1Z numbers of credentials with a webhookSecret only', () => {
      expect(upsTrackAlert.accepts(credentials(), request(NUMBER))).toBe(true);
      expect(upsTrackAlert.accepts(credentials(), request(NUMBER.toLowerCase()))).toBe(true);
      expect(upsTrackAlert.accepts(credentials(), request('92419900000033499522966220'))).toBe(
        false,
      );
      const noSecret = credentials({ secrets: { clientSecret: fake.clientSecret } });
      expect(upsTrackAlert.accepts(noSecret, request(NUMBER))).toBe(false);
      expect(upsTrackAlert.maxBatchSize).toBe(100);
      expect(upsTrackAlert.lifetimeMs).toBe(14 * 24 * 3_600_000);
    });

    it('subscribes numbers with the v2 body (no destination), bearer token and transaction ids', async () => {
      const outcome = await upsTrackAlert.subscribe(context(), [request(NUMBER), request(OTHER)]);
      expect([...outcome.entries()]).toEqual([
        [NUMBER, null],
        [OTHER, null],
      ]);
      expect(UPS_TRACK_ALERT_PATH).toBe('/api/track/v2/subscription/standard/package');
      const [call] = fake.server.calls('POST', UPS_TRACK_ALERT_PATH);
      expect(call.body).toEqual({
        locale: 'en_US',
        countryCode: 'US',
        trackingNumberList: [NUMBER, OTHER],
      });
      expect(call.headers.authorization).toMatch(/^Bearer \S+$/);
      expect(call.headers.transid).toMatch(/^[0-9a-f]{32}$/);
      expect(call.headers.transactionsrc).toBeTruthy();
      expect(fake.isSubscribed(NUMBER) && fake.isSubscribed(OTHER)).toBe(true);
    });

    it('answers permanent refusals for numbers UPS lists invalid or a rejected request', async () => {
      // A 1Z shape UPS refuses is invalid among valid ones; all invalid is a 400 VSS210.
      fake.server.failNextOn('POST', UPS_FAKE_SUBSCRIPTION_PREFIX, {
        status: 200,
        body: { validTrackingNumbers: [NUMBER], invalidTrackingNumbers: [OTHER] },
      });
      const mixed = await upsTrackAlert.subscribe(context(), [request(NUMBER), request(OTHER)]);
      expect(mixed.get(NUMBER)).toBeNull();
      expect(mixed.get(OTHER)).toMatchObject({ kind: 'permanent' });
      const refused = await upsTrackAlert.subscribe(context(), [request('1Z1234567$8')]);
      expect(refused.get('1Z1234567$8')).toMatchObject({ kind: 'permanent' });
      // Our words in the message; the server's only in the operator's detail.
      expect(refused.get('1Z1234567$8')?.message).not.toContain('VSS210');
      expect(refused.get('1Z1234567$8')?.detail).toContain('VSS210');
    });

    it('throws a 429 with its Retry-After, and refused credentials', async () => {
      const ctx = context();
      await track(ctx, NUMBER); // a token in the cache
      fake.rateLimitNext(30);
      await expect(upsTrackAlert.subscribe(ctx, [request(NUMBER)])).rejects.toMatchObject({
        kind: 'transient',
        retryAfterMs: 30_000,
      });
      fake.refuseTokens();
      await expect(upsTrackAlert.subscribe(ctx, [request(NUMBER)])).rejects.toBeInstanceOf(
        ProviderCredentialsRejected,
      );
    });
  });

  it('verifies a push carrying a token from our token URL and maps it as a poll would', async () => {
    const tracked = result((await track(context(), NUMBER)).get(NUMBER));
    const event = upsFakeAlertEvent(NUMBER, ACTIVITIES[2]);
    const now = new Date('2026-03-10T12:00:00Z');
    const issued = issueUpsPushToken(credentials(), {
      clientId: 'ups-creds',
      clientSecret: 'opaque-credential',
      grantType: 'client_credentials',
      now,
    });
    if (!('accessToken' in issued)) throw new Error('no token issued');
    const push = (headers: Record<string, string>) => ({
      headers: { 'user-agent': 'UPSPubSubTrackingService', ...headers },
      rawBody: Buffer.from(JSON.stringify(event)),
      receivedAt: now,
    });
    const bearer = { authorization: `Bearer ${issued.accessToken}`, 'x-api-key': 'ups-creds' };
    expect(upsAdapter.verifyPush?.(credentials(), push(bearer))).toBe(true);
    expect(upsAdapter.verifyPush?.(credentials(), push({ authorization: 'Bearer guess' }))).toBe(
      false,
    );
    expect(
      upsAdapter.verifyPush?.(credentials(), push({ ...bearer, 'x-api-key': 'someone-else' })),
    ).toBe(false);
    // The v1 `credential` header is no proof any more.
    expect(upsAdapter.verifyPush?.(credentials(), push({ credential: 'opaque-credential' }))).toBe(
      false,
    );
    const [update] = upsAdapter.parsePush?.(event) ?? [];
    expect(update.trackingNumber).toBe(NUMBER);
    expect(update.result.checkpoints).toEqual([tracked.checkpoints[0]]);
  });
});
