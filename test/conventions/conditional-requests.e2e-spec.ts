import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { createShipment, testTrackingNumber } from '../factories/commerce.factory';

/** README "API conventions": ETag, Last-Modified, If-None-Match (304), If-Match (412). */
describe('conditional requests', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  const FORMATS = [
    ['JSON-LD', 'application/ld+json'],
    ['JSON', 'application/json'],
    ['CSV', 'text/csv'],
  ] as const;

  it.each(FORMATS)(
    '%s: a strong ETag per format, Last-Modified, and 304 for If-None-Match',
    async (_name, accept) => {
      const shipment = await createShipment(app, tenant);
      const path = shipment['@id'];
      const first = await api(app, { accept }).withToken(tenant.token).get(path).expect(200);
      const tag = first.headers['etag'];
      expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(new Date(first.headers['last-modified']).getTime()).toBeGreaterThan(0);
      const others = await Promise.all(
        FORMATS.filter(([, a]) => a !== accept).map(([, a]) =>
          api(app, { accept: a }).withToken(tenant.token).get(path),
        ),
      );
      for (const other of others) expect(other.headers['etag']).not.toBe(tag);
      const cached = await api(app, { accept })
        .withToken(tenant.token)
        .get(path)
        .set('If-None-Match', `"nope", ${tag}`)
        .expect(304);
      expect(cached.headers['etag']).toBe(tag);
      expect(cached.text ?? '').toBe('');
      await api(app, { accept })
        .withToken(tenant.token)
        .get(path)
        .set('If-None-Match', '"stale"')
        .expect(200);
    },
  );

  it.each(FORMATS)(
    '%s: If-Match on PUT gives 412 once the record changed, and the tag changes',
    async (_name, accept) => {
      const shipment = await createShipment(app, tenant);
      const path = shipment['@id'];
      const read = await api(app, { accept }).withToken(tenant.token).get(path).expect(200);
      const tag = read.headers['etag'];
      const put = await api(app)
        .withToken(tenant.token)
        .put(path, { trackingNumber: testTrackingNumber() })
        .set('If-Match', tag)
        .expect(200);
      expect(put.headers['etag']).toBeDefined();
      const refused = await api(app)
        .withToken(tenant.token)
        .put(path, { trackingNumber: testTrackingNumber() })
        .set('If-Match', tag)
        .expect(412);
      expect(refused.body['@type']).toBe('hydra:Error');
      const stale = await api(app)
        .withToken(tenant.token)
        .delete(path)
        .set('If-Match', tag)
        .expect(412);
      expect(stale.body['hydra:description']).toMatch(/changed/);
      await api(app).withToken(tenant.token).get(path).expect(200);
      const fresh = await api(app, { accept }).withToken(tenant.token).get(path).expect(200);
      await api(app)
        .withToken(tenant.token)
        .delete(path)
        .set('If-Match', fresh.headers['etag'])
        .expect(204);
    },
  );

  it('of two racing editors holding the same tag, exactly one writes', async () => {
    const shipment = await createShipment(app, tenant);
    const path = shipment['@id'];
    const tag = (await api(app).withToken(tenant.token).get(path).expect(200)).headers['etag'];
    const numbers = [testTrackingNumber(), testTrackingNumber()];
    const answers = await Promise.all(
      numbers.map((trackingNumber) =>
        api(app).withToken(tenant.token).put(path, { trackingNumber }).set('If-Match', tag),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    const now = await api(app).withToken(tenant.token).get(path).expect(200);
    expect(now.body.trackingNumber).toBe(winner.body.trackingNumber);
  });

  it('If-Match: * holds for an existing record; a weak tag never matches; a foreign id is 404', async () => {
    const shipment = await createShipment(app, tenant);
    const path = shipment['@id'];
    const tag = (await api(app).withToken(tenant.token).get(path).expect(200)).headers['etag'];
    await api(app).withToken(tenant.token).put(path, {}).set('If-Match', `W/${tag}`).expect(412);
    await api(app).withToken(tenant.token).put(path, {}).set('If-Match', '*').expect(200);
    const other = await createTenant(app);
    await api(app).withToken(other.token).put(path, {}).set('If-Match', '*').expect(404);
  });
});
