import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { closeTestApp, createTestApp } from '../support/app';
import { createTenant, type Tenant } from '../factories/tenant.factory';

/**
 * Accept headers real clients send, answered as API Platform answers them: the best format
 * by quality first, then by the server's own order (jsonld, json, csv, html), never by the
 * order in the header. axios (and so most JavaScript clients) sends
 * `application/json, text/plain, *\/*` and must find `hydra:member`.
 */
describe('content negotiation as API Platform does it', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  it.each([
    ['application/json, text/plain, */*', 'application/ld+json'],
    ['application/json', 'application/json'],
    ['application/ld+json', 'application/ld+json'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html'],
    ['application/json;q=0.9, text/csv', 'text/csv'],
    ['text/csv, application/json', 'application/json'],
    ['*/*', 'application/ld+json'],
    ['', 'application/ld+json'],
  ])('GET /shipments with Accept "%s" answers %s', async (accept, type) => {
    const test = request(app.getHttpServer())
      .get('/shipments')
      .set('Authorization', `Bearer ${tenant.token}`);
    if (accept) test.set('Accept', accept);
    const res = await test.expect(200);
    expect(res.headers['content-type']).toBe(`${type}; charset=utf-8`);
    if (type === 'application/ld+json') expect(res.body['hydra:member']).toEqual([]);
    if (type === 'application/json') expect(res.body).toEqual([]);
  });

  it('answers 406 when nothing offered is acceptable', async () => {
    await request(app.getHttpServer())
      .get('/shipments')
      .set('Authorization', `Bearer ${tenant.token}`)
      .set('Accept', 'application/xml, text/plain')
      .expect(406);
  });
});
