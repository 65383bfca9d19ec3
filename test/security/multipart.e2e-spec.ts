import type { NestExpressApplication } from '@nestjs/platform-express';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp, testAppUrl } from '../support/app';
import { api } from '../support/http';

const BOUNDARY = 'x-security-boundary';

/**
 * Sends the headers of a multipart upload of `declaredBytes` and only its first 64 KiB, then
 * waits for the answer: it must come although the body is nowhere near complete (a server that
 * reads the body first never answers, and the test times out).
 */
function partialUpload(
  url: string,
  method: string,
  path: string,
  declaredBytes: number,
  token?: string,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, {
      method,
      headers: {
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        'Content-Length': String(declaredBytes),
        Accept: 'application/ld+json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res);
      req.destroy();
    });
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    req.write(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    req.write(Buffer.alloc(64 * 1024, 'a'));
  });
}

/**
 * Issue 11 item 6: multipart bodies are read only by routes that take uploads, after
 * authentication, within per-route limits.
 */
describe('security: multipart parsing', () => {
  let app: NestExpressApplication;
  let url: string;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp({ listen: true });
    url = testAppUrl(app);
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  it('answers 401 to a 27 MB upload without a token before its body is read', async () => {
    const res = await partialUpload(url, 'POST', '/shipments', 27 * 1024 * 1024);
    expect(res.statusCode).toBe(401);
    expect(res.headers.connection).toBe('close');
  });

  it('POST /health does not read a body', async () => {
    const res = await partialUpload(url, 'POST', '/health', 5 * 1024 * 1024);
    expect(res.statusCode).toBe(405);
  });

  it('an upload to a route that takes none is refused, and changes nothing', async () => {
    const res = await api(app, { token: tenant.token })
      .post('/shipments')
      .field('workspace', `/workspaces/${tenant.workspaceId}`)
      .field('trackingNumber', 'TM200UPLOADTM')
      .attach('file', Buffer.from('hello'), 'a.txt');
    expect(res.status).toBe(400);
    const list = await api(app, { token: tenant.token }).get('/shipments').expect(200);
    expect(list.body['hydra:totalItems']).toBe(0);
  });

  it('routes that take uploads read them within their limit', async () => {
    const ok = await api(app, { token: tenant.token })
      .post('/media')
      .attach('file', Buffer.from('small file'), 'note.txt')
      .expect(201);
    expect(ok.body.id).toBeDefined();
    const tooMany = await api(app, { token: tenant.token })
      .post('/media')
      .attach('file', Buffer.from('one'), 'one.txt')
      .attach('file', Buffer.from('two'), 'two.txt');
    expect(tooMany.status).toBe(400);
  });

  it('multipart forms without files still work on other routes', async () => {
    const res = await api(app, { token: tenant.token })
      .put(`/workspaces/${tenant.workspaceId}`)
      .field('title', 'From a form')
      .expect(200);
    expect(res.body.title).toBe('From a form');
  });
});
