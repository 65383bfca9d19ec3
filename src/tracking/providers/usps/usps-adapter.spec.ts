import { ThrottlerStorageService } from '@nestjs/throttler';
import {
  startUspsFake,
  type UspsFake,
  type UspsFakePackage,
} from '../../../../test/fakes/usps-fake';
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
import { uspsAdapter } from './usps-adapter';

const NUMBER = '9400111899223197428490';
const DELIVERED: UspsFakePackage = {
  statusCategory: 'Delivered',
  expectedDeliveryDate: '2023-08-03',
  events: [
    {
      eventTimestamp: '2023-08-02T07:31:00Z',
      eventType: 'USPS in possession of item',
      eventCode: '03',
      eventCity: 'SEATTLE',
      eventState: 'WA',
      eventZIP: '98101',
    },
    {
      eventTimestamp: '2023-08-03T07:10:00-07:00',
      eventType: 'Out for Delivery',
      eventCode: 'OF',
      eventCity: 'PALO ALTO',
      eventState: 'CA',
      eventZIP: '94301',
    },
    {
      eventTimestamp: '2023-08-03T13:02:00-07:00',
      eventType: 'Delivered, In/At Mailbox',
      eventCode: '01',
      eventCity: 'PALO ALTO',
      eventState: 'CA',
      eventZIP: '94301',
    },
  ],
};

describe('USPS adapter against the USPS fake', () => {
  let fake: UspsFake;
  let storage: ThrottlerStorageService;
  let tokens: MemoryProviderTokenCache;

  const credentials = (secret?: string): ProviderCredentials => ({
    id: 'usps-creds',
    type: 'usps',
    baseUrl: fake.baseUrl,
    parameters: { clientId: fake.clientId },
    secrets: { clientSecret: secret ?? fake.clientSecret },
  });
  const context = (creds = credentials()): ProviderCallContext => ({
    credentials: creds,
    http: new FetchProviderHttp({
      provider: 'usps',
      budgetKey: creds.id,
      requestsPerSecond: 1000,
      timeoutMs: 5000,
      limiter: new ProviderRateLimiter(storage),
    }),
    tokens,
    now: new Date('2023-08-04T00:00:00Z'),
  });
  const track = (ctx: ProviderCallContext, ...numbers: string[]) =>
    uspsAdapter.track(
      ctx,
      numbers.map((trackingNumber) => ({ trackingNumber, carrierCode: 'usps' })),
    );
  const result = (outcome: unknown): TrackingResult => {
    if (outcome instanceof Error || outcome === undefined) throw outcome ?? new Error('none');
    return outcome as TrackingResult;
  };

  beforeEach(async () => {
    fake = await startUspsFake();
    storage = new ThrottlerStorageService();
    tokens = new MemoryProviderTokenCache();
    fake.setPackage(NUMBER, DELIVERED);
  });

  afterEach(async () => {
    storage.onApplicationShutdown();
    await fake.close();
  });

  it('declares one number per call, the USPS carrier and production host', () => {
    expect(uspsAdapter.maxBatchSize).toBe(1);
    expect(uspsAdapter.carriers).toEqual(['usps']);
    expect(uspsAdapter.defaultBaseUrl).toBe('https://apis.usps.com');
  });

  it('gets a token with JSON client credentials and maps the DETAIL answer', async () => {
    const answers = await track(context(), NUMBER);
    const [tokenCall] = fake.server.calls('POST', '/oauth2/v3/token');
    expect(tokenCall.headers['content-type']).toMatch(/application\/json/);
    expect(tokenCall.body).toEqual({
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
      grant_type: 'client_credentials',
    });
    const [trackCall] = fake.trackCalls();
    expect(trackCall.path).toBe(`/tracking/v3/tracking/${NUMBER}`);
    expect(trackCall.query.get('expand')).toBe('DETAIL');
    expect(trackCall.headers.authorization).toMatch(/^Bearer \S+$/);
    const tracked = result(answers.get(NUMBER));
    expect(tracked.checkpoints.map((c) => [c.status, c.checkpointDate.toISOString()])).toEqual([
      ['delivered', '2023-08-03T20:02:00.000Z'],
      ['delivery_in_progress', '2023-08-03T14:10:00.000Z'],
      ['in_transit', '2023-08-02T07:31:00.000Z'],
    ]);
    expect(tracked.checkpoints[0]).toMatchObject({
      info: 'Delivered, In/At Mailbox',
      location: 'PALO ALTO, CA 94301',
      countryIso2: 'US',
      carrierCode: 'usps',
      rawStatus: '01 Delivered, In/At Mailbox',
    });
    expect(tracked.facts).toEqual({ expectedDeliveryDate: new Date('2023-08-03T00:00:00Z') });
  });

  it('reuses the token, renews it once when it expired', async () => {
    const ctx = context();
    await track(ctx, NUMBER);
    await track(ctx, NUMBER);
    expect(fake.tokensIssued()).toBe(1);
    fake.expireTokens();
    const answers = await track(ctx, NUMBER);
    expect(result(answers.get(NUMBER)).checkpoints).toHaveLength(3);
    expect(fake.tokensIssued()).toBe(2);
    expect(fake.trackCalls()).toHaveLength(4);
  });

  it('reports wrong client credentials as rejected, without calling tracking', async () => {
    const error: unknown = await track(context(credentials('nope')), NUMBER).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderCredentialsRejected);
    // Our words in the message; the server's only in the operator's detail.
    expect((error as Error).message).not.toContain('invalid_client');
    expect((error as ProviderCredentialsRejected).detail).toContain('invalid_client');
    expect(fake.trackCalls()).toHaveLength(0);
  });

  it('reports credentials without a secret as rejected, without calling USPS', async () => {
    const creds = { ...credentials(), secrets: {} };
    await expect(track(context(creds), NUMBER)).rejects.toBeInstanceOf(ProviderCredentialsRejected);
    expect(fake.server.requests).toHaveLength(0);
  });

  it('reads 404 as nothing known yet', async () => {
    fake.setPackage('9400100000000000000000', null);
    const answers = await track(context(), '9400100000000000000000');
    expect(answers.get('9400100000000000000000')).toEqual({ checkpoints: [], facts: {} });
  });

  it('throws 429 as transient with the Retry-After delay', async () => {
    const ctx = context();
    await track(ctx, NUMBER);
    fake.rateLimitNext(30);
    const error: unknown = await track(ctx, NUMBER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackingProviderError);
    expect((error as TrackingProviderError).retryAfterMs).toBe(30_000);
  });
});
