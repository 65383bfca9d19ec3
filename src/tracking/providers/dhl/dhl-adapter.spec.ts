import { ThrottlerStorageService } from '@nestjs/throttler';
import { startDhlFake, type DhlFake, type DhlFakeShipment } from '../../../../test/fakes/dhl-fake';
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
import { dhlAdapter } from './dhl-adapter';

const WAYBILL = '1234567890';
const EXPRESS: DhlFakeShipment = {
  service: 'express',
  originCountryCode: 'HK',
  destinationCountryCode: 'DE',
  estimatedTimeOfDelivery: '2024-05-03T18:00:00+02:00',
  events: [
    {
      timestamp: '2024-05-01T22:41:00+08:00',
      statusCode: 'transit',
      status: 'Shipment picked up',
      addressLocality: 'HONG KONG - HONG KONG',
      countryCode: 'HK',
    },
    {
      timestamp: '2024-05-03T08:12:00+02:00',
      statusCode: 'transit',
      status: 'With delivery courier',
      addressLocality: 'LEIPZIG - GERMANY',
      countryCode: 'DE',
    },
  ],
};
const ECOMMERCE: DhlFakeShipment = {
  service: 'ecommerce-europe',
  events: [
    {
      timestamp: '2024-05-02T10:00:00+02:00',
      statusCode: 'delivered',
      status: 'Delivered',
      countryCode: 'NL',
    },
  ],
};

describe('DHL adapter against the DHL fake', () => {
  let fake: DhlFake;
  let storage: ThrottlerStorageService;

  const credentials = (apiKey?: string): ProviderCredentials => ({
    id: 'dhl-creds',
    type: 'dhl',
    baseUrl: fake.baseUrl,
    parameters: {},
    secrets: { apiKey: apiKey ?? fake.apiKey },
  });
  const context = (creds = credentials()): ProviderCallContext => ({
    credentials: creds,
    http: new FetchProviderHttp({
      provider: 'dhl',
      budgetKey: creds.id,
      requestsPerSecond: 1000,
      timeoutMs: 5000,
      limiter: new ProviderRateLimiter(storage),
    }),
    tokens: new MemoryProviderTokenCache(),
    now: new Date('2024-05-03T12:00:00Z'),
  });
  const track = (ctx: ProviderCallContext, carrierCode: string | null, ...numbers: string[]) =>
    dhlAdapter.track(
      ctx,
      numbers.map((trackingNumber) => ({ trackingNumber, carrierCode })),
    );
  const result = (outcome: unknown): TrackingResult => {
    if (outcome instanceof Error || outcome === undefined) throw outcome ?? new Error('none');
    return outcome as TrackingResult;
  };

  beforeEach(async () => {
    fake = await startDhlFake();
    storage = new ThrottlerStorageService();
    fake.setShipments(WAYBILL, [EXPRESS, ECOMMERCE]);
  });

  afterEach(async () => {
    storage.onApplicationShutdown();
    await fake.close();
  });

  it('declares one number per call, 1 request/s, the DHL carriers and production host', () => {
    expect(dhlAdapter.maxBatchSize).toBe(1);
    expect(dhlAdapter.requestsPerSecond).toBe(1);
    expect([...(dhlAdapter.carriers ?? [])].sort()).toEqual([
      'deutsche-post',
      'dhl',
      'dhl-ecommerce',
    ]);
    expect(dhlAdapter.defaultBaseUrl).toBe('https://api-eu.dhl.com');
  });

  it('asks with the DHL-API-Key header and maps the Express shipment', async () => {
    const answers = await track(context(), 'dhl', WAYBILL);
    const [call] = fake.trackCalls();
    expect(call.headers['dhl-api-key']).toBe(fake.apiKey);
    expect(call.query.get('trackingNumber')).toBe(WAYBILL);
    const tracked = result(answers.get(WAYBILL));
    expect(tracked.checkpoints.map((c) => [c.status, c.checkpointDate.toISOString()])).toEqual([
      ['delivery_in_progress', '2024-05-03T06:12:00.000Z'],
      ['in_transit', '2024-05-01T14:41:00.000Z'],
    ]);
    expect(tracked.checkpoints[0]).toMatchObject({
      info: 'With delivery courier',
      location: 'LEIPZIG - GERMANY',
      countryIso2: 'DE',
      carrierCode: 'dhl',
      rawStatus: 'transit/With delivery courier',
    });
    expect(tracked.facts).toEqual({
      expectedDeliveryDate: new Date('2024-05-03T16:00:00Z'),
      originCountryIso2: 'HK',
      destinationCountryIso2: 'DE',
    });
  });

  it('picks the division of the asked carrier when several know the number', async () => {
    const answers = await track(context(), 'dhl-ecommerce', WAYBILL);
    const tracked = result(answers.get(WAYBILL));
    expect(tracked.checkpoints.map((c) => [c.carrierCode, c.status])).toEqual([
      ['dhl-ecommerce', 'delivered'],
    ]);
  });

  it('reads 404 problem answers as nothing known yet', async () => {
    const answers = await track(context(), 'dhl', '9999999999');
    expect(answers.get('9999999999')).toEqual({ checkpoints: [], facts: {} });
  });

  it('reports a wrong or missing API key as rejected credentials', async () => {
    const error: unknown = await track(context(credentials('stolen')), 'dhl', WAYBILL).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderCredentialsRejected);
    expect((error as ProviderCredentialsRejected).status).toBe(401);
    const calls = fake.trackCalls().length;
    await expect(track(context(credentials('')), 'dhl', WAYBILL)).rejects.toBeInstanceOf(
      ProviderCredentialsRejected,
    );
    expect(fake.trackCalls()).toHaveLength(calls);
  });

  it('throws the quota 429 as transient with its Retry-After', async () => {
    fake.rateLimitNext(3600);
    const error: unknown = await track(context(), 'dhl', WAYBILL).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackingProviderError);
    expect((error as TrackingProviderError).transient).toBe(true);
    expect((error as TrackingProviderError).retryAfterMs).toBe(3_600_000);
  });

  it('keeps the answer of an earlier number when a later one hits the quota', async () => {
    fake.setShipments('5555555555', [EXPRESS]);
    fake.server.failNext(
      { status: 200, body: { shipments: [] } },
      { status: 429, body: '{}', headers: { 'Retry-After': '60' } },
    );
    const answers = await track(context(), 'dhl', WAYBILL, '5555555555');
    expect(answers.get(WAYBILL)).toEqual({ checkpoints: [], facts: {} });
    expect((answers.get('5555555555') as TrackingProviderError).retryAfterMs).toBe(60_000);
  });
});
