import express from 'express';
import type { AddressInfo } from 'net';
import type { Server } from 'http';
import { Writable } from 'stream';
import pino from 'pino';
import request from 'supertest';
import { loadConfig } from '../../src/config/load-config';
import { pinoOptions } from '../../src/config/logger-options';
import { requestLogger } from '../../src/config/request-logger';

/**
 * Issue 11 item 4: secrets in URLs (OAuth codes and tokens, passwords, capability paths) never
 * reach a log line. The application's own logger options run over a real HTTP server whose
 * log output is captured.
 */
describe('security: secrets are redacted from every log line', () => {
  const lines: string[] = [];
  let server: Server;

  beforeAll(async () => {
    const config = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info' });
    const options = pinoOptions(config);
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const app = express();
    const logger = pino({ ...options, transport: undefined }, sink);
    app.use(requestLogger(logger));
    app.use((req, res) => {
      logger.info(`handling ${req.originalUrl}`);
      logger.warn({ url: req.originalUrl }, 'context object');
      logger.error(new Error(`upstream failed for ${req.originalUrl}`));
      res.status(404).end();
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const secrets = [
    [
      'client_secret',
      '/oauth/v2/token?grant_type=client_credentials&client_id=abc&client_secret=S3CRETvalue1',
    ],
    ['refresh_token', '/oauth/v2/token?grant_type=refresh_token&refresh_token=S3CRETvalue2'],
    ['code', '/oauth/v2/auth?state=xyz&code=S3CRETvalue3'],
    ['access_token', '/shipments?access_token=S3CRETvalue4&page=1'],
    ['password', '/security/x?Password=S3CRETvalue5'],
    ['token (bracketed)', '/x?auth[token]=S3CRETvalue6'],
    ['tracking capability path', '/t/S3CRETvalue7'],
    ['media capability path', '/media/files/ab/S3CRETvalue8.png'],
    ['public link path', '/public/tracking_page_links/S3CRETvalue9/reviews'],
  ] as const;

  it.each(secrets)('redacts %s', async (_name, path) => {
    lines.length = 0;
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await request(url).get(path).expect(404);
    const output = lines.join('\n');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(output).not.toMatch(/S3CRETvalue/);
    expect(output).toContain('[REDACTED]');
  });

  it('keeps harmless parameters and the route readable', async () => {
    lines.length = 0;
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await request(url).get('/shipments?page=2&trackingNumber=TM200X&client_secret=zz').expect(404);
    const completed = lines.map((l) => JSON.parse(l)).find((l) => l.req?.url);
    expect(completed.req.url).toBe(
      '/shipments?page=2&trackingNumber=TM200X&client_secret=[REDACTED]',
    );
  });
});
