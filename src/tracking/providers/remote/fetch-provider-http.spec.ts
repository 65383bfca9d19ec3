import { ThrottlerStorageService } from '@nestjs/throttler';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
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
      // Our words in the message; the server's only in the operator's detail.
      expect((error as Error).message).not.toContain('bad key');
      expect((error as ProviderCredentialsRejected).detail).toContain('bad key');
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

  describe('where a team\u2019s credentials may connect', () => {
    const checked = (allowedHosts: string[], trustedOrigins: string[] = []) =>
      new FetchProviderHttp({
        provider: 'ups',
        budgetKey: 'c1',
        requestsPerSecond: 100,
        timeoutMs: 2000,
        limiter: new ProviderRateLimiter(storage),
        outbound: {
          trustedOrigins,
          policy: { allowedHosts, lookup: async () => [{ address: '127.0.0.1', family: 4 }] },
        },
      });
    beforeEach(() => server.on('GET', '/ok', () => ({ status: 200, body: { ok: true } })));

    it('refuses a private address unless allowed, without connecting, in its own words', async () => {
      const before = server.requests.length;
      const error = (await failure(
        checked([]).request({ method: 'GET', url: `${server.baseUrl}/ok` }),
      )) as TrackingProviderError;
      expect(error).toBeInstanceOf(TrackingProviderError);
      expect([error.kind, error.message]).toEqual([
        'permanent',
        'ups: refused: not a public address',
      ]);
      // The name or address refused is for the operator only.
      expect(error.detail).toContain('127.0.0.1');
      const named = (await failure(
        checked([]).request({ method: 'GET', url: `http://internal.example:1/ok` }),
      )) as TrackingProviderError;
      expect(named.message).toBe('ups: refused: not a public address');
      expect(server.requests.length).toBe(before);
    });

    it('reaches allowed hosts and the provider\u2019s own origin', async () => {
      const allowed = await checked(['127.0.0.1']).request({
        method: 'GET',
        url: `${server.baseUrl}/ok`,
      });
      expect(allowed.body).toEqual({ ok: true });
      const trusted = await checked([], [server.baseUrl]).request({
        method: 'GET',
        url: `${server.baseUrl}/ok`,
      });
      expect(trusted.body).toEqual({ ok: true });
    });

    it('connects to the address it checked, whatever DNS says later (pinned)', async () => {
      // provider.test has no DNS entry: only the policy's answer can take the request there.
      const port = new URL(server.baseUrl).port;
      const pinned = await checked(['127.0.0.1']).request({
        method: 'GET',
        url: `http://provider.test:${port}/ok`,
      });
      expect(pinned.body).toEqual({ ok: true });
    });
  });

  it('decodes gzip answers and never follows a redirect', async () => {
    const other = createServer((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { Location: '/zipped' }).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ zipped: req.headers['accept-encoding'] })));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const answer = await http.request({ method: 'GET', url: `${base}/zipped` });
      expect(answer.body).toEqual({ zipped: 'gzip, deflate, br' });
      const moved = (await failure(
        http.request({ method: 'GET', url: `${base}/moved` }),
      )) as TrackingProviderError;
      expect([moved.kind, moved.message]).toEqual(['permanent', 'ups answered HTTP 302']);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
