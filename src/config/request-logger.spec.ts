import express from 'express';
import type { AddressInfo } from 'net';
import http from 'http';
import pino from 'pino';
import { Writable } from 'stream';
import { loadConfig } from './load-config';
import { pinoOptions } from './logger-options';
import { requestLogLevel, requestLogger } from './request-logger';
import { securityHeaders } from './security-headers';

describe('requestLogLevel', () => {
  it.each([
    [200, false, 'info'],
    [302, false, 'info'],
    [404, false, 'warn'],
    [422, false, 'warn'],
    [500, false, 'error'],
    [502, false, 'error'],
    [503, false, 'warn'],
    [200, true, 'warn'],
  ] as const)('%i (aborted: %s) -> %s', (status, aborted, level) => {
    expect(requestLogLevel(status, aborted)).toBe(level);
  });
});

describe('requestLogger and securityHeaders over a real server', () => {
  const lines: Array<Record<string, any>> = [];
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString('utf8').split('\n').filter(Boolean))
          lines.push(JSON.parse(l));
        done();
      },
    });
    const app = express();
    const config = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info' });
    app.use(requestLogger(pino({ ...pinoOptions(config), transport: undefined }, sink)));
    app.use(securityHeaders());
    app.get('/ok', (_req, res) => res.json({ ok: true }));
    app.get('/boom', (_req, res) => res.status(500).end());
    app.get('/slow', (_req, res) => setTimeout(() => res.end('late'), 300));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const waitForLines = async (n: number) => {
    for (let i = 0; i < 100 && lines.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('writes one line per request with the id, the redacted URL, the status and the time', async () => {
    lines.length = 0;
    const res = await fetch(`${base}/ok?access_token=S3CRET&page=2`, {
      headers: { 'x-request-id': 'req-1' },
    });
    expect(res.headers.get('x-request-id')).toBe('req-1');
    await waitForLines(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: {
        id: 'req-1',
        method: 'GET',
        url: '/ok?access_token=[REDACTED]&page=2',
        remoteAddress: '127.0.0.1',
      },
      res: { statusCode: 200 },
    });
    expect(typeof lines[0].responseTime).toBe('number');
    expect(JSON.stringify(lines[0])).not.toMatch(/S3CRET|authorization/i);
  });

  it('logs a 5xx as an error and a request the client abandoned as aborted', async () => {
    lines.length = 0;
    await fetch(`${base}/boom`);
    const controller = new AbortController();
    const pending = fetch(`${base}/slow`, { signal: controller.signal }).catch(() => undefined);
    setTimeout(() => controller.abort(), 50);
    await pending;
    await waitForLines(2);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'request errored'],
      [40, 'request aborted'],
    ]);
  });

  it("sets helmet's headers on every answer", async () => {
    const res = await fetch(`${base}/ok`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });
});
