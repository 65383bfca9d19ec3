import { ThrottlerStorageService } from '@nestjs/throttler';
import {
  fedexFakeTrackResponse,
  startFedexFake,
  type FedexFake,
  type FedexFakeShipment,
} from '../../../../test/fakes/fedex-fake';
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
import { fedexAdapter } from './fedex-adapter';

const NUMBER = '794843185271';
const GROUND_ECONOMY: FedexFakeShipment = {
  estimatedDelivery: '2024-03-08T00:00:00-05:00',
  scans: [
    {
      date: '2024-03-04T12:01:00-07:00',
      eventType: 'PU',
      eventDescription: 'Picked up',
      city: 'DENVER',
      stateOrProvinceCode: 'CO',
    },
    {
      date: '2024-03-06T23:10:00-06:00',
      eventType: 'AR',
      eventDescription: 'Arrived at FedEx location',
      derivedStatusCode: 'IT',
      city: 'CHICAGO',
      stateOrProvinceCode: 'IL',
    },
    {
      date: '2024-03-07T05:40:00-05:00',
      eventType: 'AX',
      eventDescription: 'At USPS facility',
      derivedStatusCode: 'IT',
      city: 'NEW YORK',
      stateOrProvinceCode: 'NY',
    },
  ],
};

describe('FedEx adapter against the FedEx fake', () => {
  let fake: FedexFake;
  let storage: ThrottlerStorageService;
  let tokens: MemoryProviderTokenCache;

  const credentials = (secret?: string): ProviderCredentials => ({
    id: 'fedex-creds',
    type: 'fedex',
    baseUrl: fake.baseUrl,
    parameters: { clientId: fake.clientId },
    secrets: { clientSecret: secret ?? fake.clientSecret },
  });
  const context = (creds = credentials()): ProviderCallContext => ({
    credentials: creds,
    http: new FetchProviderHttp({
      provider: 'fedex',
      budgetKey: creds.id,
      requestsPerSecond: 1000,
      timeoutMs: 5000,
      limiter: new ProviderRateLimiter(storage),
    }),
    tokens,
    now: new Date('2024-03-07T12:00:00Z'),
  });
  const track = (ctx: ProviderCallContext, numbers: string[]) =>
    fedexAdapter.track(
      ctx,
      numbers.map((trackingNumber) => ({ trackingNumber, carrierCode: 'fedex' })),
    );
  const result = (outcome: unknown): TrackingResult => {
    if (outcome instanceof Error || outcome === undefined) throw outcome ?? new Error('none');
    return outcome as TrackingResult;
  };

  beforeEach(async () => {
    fake = await startFedexFake();
    storage = new ThrottlerStorageService();
    tokens = new MemoryProviderTokenCache();
    fake.setShipment(NUMBER, GROUND_ECONOMY);
  });

  afterEach(async () => {
    storage.onApplicationShutdown();
    await fake.close();
  });

  it('declares 30 numbers per call, the FedEx carrier and production host', () => {
    expect(fedexAdapter.maxBatchSize).toBe(30);
    expect(fedexAdapter.carriers).toEqual(['fedex']);
    expect(fedexAdapter.defaultBaseUrl).toBe('https://apis.fedex.com');
  });

  it('gets a token with form client credentials and maps the detailed scans', async () => {
    const answers = await track(context(), [NUMBER]);
    const [tokenCall] = fake.server.calls('POST', '/oauth/token');
    expect(tokenCall.body).toEqual({
      grant_type: 'client_credentials',
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
    });
    const [trackCall] = fake.server.calls('POST', '/track/v1/trackingnumbers');
    expect(trackCall.headers.authorization).toMatch(/^Bearer \S+$/);
    expect(trackCall.body).toEqual({
      includeDetailedScans: true,
      trackingInfo: [{ trackingNumberInfo: { trackingNumber: NUMBER } }],
    });
    const tracked = result(answers.get(NUMBER));
    expect(tracked.checkpoints.map((c) => [c.rawStatus, c.checkpointDate.toISOString()])).toEqual([
      ['AX/IT', '2024-03-07T10:40:00.000Z'],
      ['AR/IT', '2024-03-07T05:10:00.000Z'],
      ['PU/PU', '2024-03-04T19:01:00.000Z'],
    ]);
    expect(tracked.checkpoints[0]).toMatchObject({
      status: 'in_transit',
      info: 'At USPS facility',
      location: 'NEW YORK, NY',
      countryIso2: 'US',
      carrierCode: 'fedex',
    });
    expect(tracked.facts).toEqual({
      expectedDeliveryDate: new Date('2024-03-08T05:00:00Z'),
      destinationCarrier: 'usps',
    });
  });

  it('splits more than 30 numbers into calls of 30 and reads unknown numbers as no news', async () => {
    const numbers = [NUMBER, ...Array.from({ length: 31 }, (_, i) => `7000000000${10 + i}`)];
    const answers = await track(context(), numbers);
    expect(fake.trackBatches().map((b) => b.length)).toEqual([30, 2]);
    expect(answers.size).toBe(32);
    expect(result(answers.get(NUMBER)).checkpoints).toHaveLength(3);
    expect(answers.get('700000000040')).toEqual({ checkpoints: [], facts: {} });
    expect(fake.tokensIssued()).toBe(1);
  });

  it('is refused more than 30 numbers by the fake, as by FedEx', async () => {
    const ctx = context();
    const token = await tokens.get(ctx.credentials.id, async () => {
      const res = await ctx.http.request({
        method: 'POST',
        url: `${fake.baseUrl}/oauth/token`,
        form: {
          grant_type: 'client_credentials',
          client_id: fake.clientId,
          client_secret: fake.clientSecret,
        },
      });
      const body = res.body as { access_token: string; expires_in: number };
      return { accessToken: body.access_token, expiresInSeconds: body.expires_in };
    });
    const error: unknown = await ctx.http
      .request({
        method: 'POST',
        url: `${fake.baseUrl}/track/v1/trackingnumbers`,
        headers: { Authorization: `Bearer ${token}` },
        json: {
          trackingInfo: Array.from({ length: 31 }, (_, i) => ({
            trackingNumberInfo: { trackingNumber: `70000000${i}` },
          })),
        },
      })
      .catch((e: unknown) => e);
    expect((error as TrackingProviderError).kind).toBe('permanent');
    // Our words in the message; the server's only in the operator's detail.
    expect((error as Error).message).not.toContain('LIMITEXCEEDED');
    expect((error as TrackingProviderError).detail).toContain('LIMITEXCEEDED');
  });

  it('renews an expired token once and repeats the call', async () => {
    const ctx = context();
    await track(ctx, [NUMBER]);
    fake.expireTokens();
    const answers = await track(ctx, [NUMBER]);
    expect(result(answers.get(NUMBER)).checkpoints).toHaveLength(3);
    expect(fake.tokensIssued()).toBe(2);
    expect(fake.trackBatches()).toHaveLength(3);
  });

  it('reports wrong client credentials as rejected, without calling Track', async () => {
    const error: unknown = await track(context(credentials('wrong')), [NUMBER]).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderCredentialsRejected);
    // Our words in the message; the server's only in the operator's detail.
    expect((error as Error).message).not.toContain('NOT.AUTHORIZED.ERROR');
    expect((error as ProviderCredentialsRejected).detail).toContain('NOT.AUTHORIZED.ERROR');
    expect(fake.trackBatches()).toHaveLength(0);
  });

  it('reports credentials without a clientId as rejected, without calling FedEx', async () => {
    const creds = { ...credentials(), parameters: {} };
    await expect(track(context(creds), [NUMBER])).rejects.toBeInstanceOf(
      ProviderCredentialsRejected,
    );
    expect(fake.server.requests).toHaveLength(0);
  });

  it('throws a 429 of the first call as transient with its Retry-After', async () => {
    const ctx = context();
    await track(ctx, [NUMBER]);
    fake.rateLimitNext(12);
    const error: unknown = await track(ctx, [NUMBER]).catch((e: unknown) => e);
    expect((error as TrackingProviderError).transient).toBe(true);
    expect((error as TrackingProviderError).retryAfterMs).toBe(12_000);
  });

  it('keeps the first call answers when a later call is rate limited', async () => {
    const ctx = context();
    const numbers = [NUMBER, ...Array.from({ length: 30 }, (_, i) => `7100000000${10 + i}`)];
    await track(ctx, [NUMBER]);
    fake.server.failNext(
      {
        status: 200,
        body: fedexFakeTrackResponse(
          numbers.slice(0, 30).map((n) => [n, n === NUMBER ? GROUND_ECONOMY : undefined]),
        ),
      },
      { status: 429, body: { errors: [] }, headers: { 'Retry-After': '2' } },
    );
    const answers = await track(ctx, numbers);
    expect(answers.size).toBe(31);
    expect(result(answers.get(NUMBER)).checkpoints).toHaveLength(3);
    expect(answers.get(numbers[29])).toEqual({ checkpoints: [], facts: {} });
    expect((answers.get(numbers[30]) as TrackingProviderError).retryAfterMs).toBe(2000);
  });

  it('answers a transient error for a number FedEx leaves out of its answer', async () => {
    const ctx = context();
    await track(ctx, [NUMBER]);
    fake.server.failNext({ status: 200, body: fedexFakeTrackResponse([]) });
    const answers = await track(ctx, [NUMBER]);
    expect((answers.get(NUMBER) as TrackingProviderError).transient).toBe(true);
  });

  it('gives a per-number FedEx error other than not-found as a permanent outcome', async () => {
    const ctx = context();
    await track(ctx, [NUMBER]);
    fake.server.failNext({
      status: 200,
      body: {
        output: {
          completeTrackResults: [
            {
              trackingNumber: 'X1',
              trackResults: [
                { error: { code: 'TRACKING.TRACKINGNUMBER.INVALID', message: 'Invalid.' } },
              ],
            },
          ],
        },
      },
    });
    const answers = await track(ctx, ['X1']);
    expect((answers.get('X1') as TrackingProviderError).kind).toBe('permanent');
  });
});
