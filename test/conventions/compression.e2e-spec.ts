import type { NestExpressApplication } from '@nestjs/platform-express';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { get, type IncomingHttpHeaders } from 'node:http';
import { closeTestApp, createTestApp, testAppUrl } from '../support/app';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { createShipment } from '../factories/commerce.factory';

async function expectStatus<T extends { status: number }>(
  answer: Promise<T>,
  status: number,
): Promise<T> {
  const res = await answer;
  expect(res.status).toBe(status);
  return res;
}

/** README "API conventions": gzip or brotli by Accept-Encoding over 1 KB. */
describe('compression', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp({ listen: true });
    tenant = await createTenant(app);
    for (let i = 0; i < 12; i++) await createShipment(app, tenant);
  });
  afterAll(() => closeTestApp(app));

  /** The raw bytes of an answer (supertest would decode them). */
  const raw = (
    path: string,
    encoding: string,
    accept = 'application/ld+json',
    extra: Record<string, string> = {},
  ) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        get(
          `${testAppUrl(app)}${path}`,
          {
            headers: {
              Authorization: `Bearer ${tenant.token}`,
              Accept: accept,
              ...(encoding ? { 'Accept-Encoding': encoding } : {}),
              ...extra,
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode!,
                headers: res.headers,
                body: Buffer.concat(chunks),
              }),
            );
          },
        ).on('error', reject);
      },
    );

  it('codes a JSON-LD list with brotli or gzip as the client prefers', async () => {
    const plain = await expectStatus(raw('/shipments', 'identity'), 200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/Accept-Encoding/);
    const br = await expectStatus(raw('/shipments', 'gzip;q=0.5, br'), 200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-length']).toBeUndefined();
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await expectStatus(raw('/shipments', 'gzip, br;q=0.1'), 200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.body.length).toBeLessThan(plain.body.length);
  });

  it('sends whole, unchanged answers to clients that accept no coding', async () => {
    for (const path of ['/shipments', '/entity_types', '/docs.json']) {
      const res = await expectStatus(
        raw(path, '', path === '/docs.json' ? 'application/json' : 'application/ld+json'),
        200,
      );
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(() => JSON.parse(res.body.toString())).not.toThrow();
    }
  });

  it('codes CSV streams and the OpenAPI description', async () => {
    const csv = await expectStatus(raw('/shipments', 'gzip', 'text/csv'), 200);
    expect(csv.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(csv.body).toString()).toMatch(/^id,/m);
    const docs = await expectStatus(raw('/docs.json', 'br', 'application/json'), 200);
    expect(docs.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(docs.body).toString()).openapi).toMatch(/^3\.0\./);
  });

  it('leaves answers under 1 KB alone, and keeps the ETag the same entity', async () => {
    const small = await expectStatus(raw('/robots.txt', 'gzip, br', 'text/plain'), 200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    const one = await createShipment(app, tenant);
    const item = await expectStatus(raw(one['@id'], 'gzip'), 200);
    const tag = item.headers['etag'];
    if (item.headers['content-encoding'] === 'gzip') expect(tag).toMatch(/-gzip"$/);
    const cached = await expectStatus(
      raw(one['@id'], 'gzip', 'application/ld+json', { 'If-None-Match': String(tag) }),
      304,
    );
    expect(cached.headers['content-encoding']).toBeUndefined();
  });
});
