import { ThrottlerStorageService } from '@nestjs/throttler';
import {
  startFakeProviderServer,
  type FakeProviderServer,
} from '../../../../test/fakes/fake-provider-server';
import { TrackingProviderError } from '../tracking-provider-error';
import { DEFAULT_RETRY_AFTER_MS, FetchProviderHttp } from './fetch-provider-http';
import { ProviderCredentialsRejected } from './provider-adapter';
import { ProviderRateLimiter } from './provider-rate-limiter';

describe('FetchProviderHttp', () => {
  let server: FakeProviderServer;
  let storage: ThrottlerStorageService;
  let http: FetchProviderHttp;

  beforeAll(async () => {
    server = await startFakeProviderServer();
    server.on('POST', '/echo', (req) => ({
      status: 200,
      body: { body: req.body, type: req.headers['content-type'], query: req.query.get('q') },
    }));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    storage = new ThrottlerStorageService();
    http = new FetchProviderHttp({
      provider: 'ups',
      budgetKey: 'c1',
      requestsPerSecond: 100,
      timeoutMs: 2000,
      limiter: new ProviderRateLimiter(storage),
    });
  });
  afterEach(() => storage.onApplicationShutdown());

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e,
    );

  it('sends JSON or form bodies and the query, and parses JSON answers', async () => {
    const json = await http.request({
      method: 'POST',
      url: `${server.baseUrl}/echo`,
      json: [{ number: 'A1' }],
      query: { q: 'x', skipped: undefined },
    });
    expect(json).toMatchObject({
      status: 200,
      body: { body: [{ number: 'A1' }], type: 'application/json', query: 'x' },
    });
    const form = await http.request({
      method: 'POST',
      url: `${server.baseUrl}/echo`,
      form: { grant_type: 'client_credentials' },
    });
    expect(form.body).toMatchObject({
      body: { grant_type: 'client_credentials' },
      type: 'application/x-www-form-urlencoded',
    });
  });

  it('sends every method the adapters use, PATCH with its JSON body included', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      server.on(method, '/method', (req) => ({
        status: 200,
        body: { method: req.method, body: req.body ?? null },
      }));
      const json = method === 'GET' ? undefined : { isSubscribed: false };
      const answer = await http.request({ method, url: `${server.baseUrl}/method`, json });
      expect(answer.body).toEqual({ method, body: json ?? null });
    }
  });

  it('turns 401 and 403 into refused credentials', async () => {
    for (const status of [401, 403]) {
      server.failNext({ status, body: { error: 'bad key' } });
      const error = await failure(http.request({ method: 'GET', url: `${server.baseUrl}/x` }));
      expect(error).toBeInstanceOf(ProviderCredentialsRejected);
      expect((error as ProviderCredentialsRejected).status).toBe(status);
      expect((error as Error).message).toContain('bad key');
    }
  });

  it('makes 429 and 5xx transient, with Retry-After or a default for 429', async () => {
    server.failNext(
      { status: 429, headers: { 'Retry-After': '7' }, body: 'slow down' },
      { status: 429, body: 'slow down' },
      { status: 503, body: 'maintenance' },
    );
    const hinted = (await failure(
      http.request({ method: 'GET', url: `${server.baseUrl}/x` }),
    )) as TrackingProviderError;
    expect([hinted.transient, hinted.retryAfterMs]).toEqual([true, 7000]);
    const plain = (await failure(
      http.request({ method: 'GET', url: `${server.baseUrl}/x` }),
    )) as TrackingProviderError;
    expect(plain.retryAfterMs).toBe(DEFAULT_RETRY_AFTER_MS);
    const down = (await failure(
      http.request({ method: 'GET', url: `${server.baseUrl}/x` }),
    )) as TrackingProviderError;
    expect([down.transient, down.retryAfterMs]).toEqual([true, null]);
  });

  it('makes other statuses permanent unless the adapter accepts them', async () => {
    const missing = (await failure(
      http.request({ method: 'GET', url: `${server.baseUrl}/nowhere` }),
    )) as TrackingProviderError;
    expect(missing).toBeInstanceOf(TrackingProviderError);
    expect(missing.transient).toBe(false);
    const accepted = await http.request({
      method: 'GET',
      url: `${server.baseUrl}/nowhere`,
      acceptStatuses: [404],
    });
    expect(accepted.status).toBe(404);
  });

  it('makes an unreachable provider transient', async () => {
    const closed = await startFakeProviderServer();
    await closed.close();
    const error = (await failure(
      http.request({ method: 'GET', url: `${closed.baseUrl}/x` }),
    )) as TrackingProviderError;
    expect(error.transient).toBe(true);
    expect(error.message).toMatch(/unreachable/);
  });
});
