import type { NestExpressApplication } from '@nestjs/platform-express';
import { routeLayers, type RouterLayer } from '../src/common/route-index';
import { RouteTable } from '../src/hydra/errors/route-table';
import { closeTestApp, createTestApp } from './support/app';
import request from 'supertest';
import { api } from './support/http';

describe('route index of the real application', () => {
  let app: NestExpressApplication;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => closeTestApp(app));

  it('takes the routes out of the linear scan and still routes, 404s and 405s as before', async () => {
    const stack = (app.getHttpAdapter().getInstance() as { router: { stack: RouterLayer[] } })
      .router.stack;
    const all = routeLayers(stack);
    expect(all.length).toBeGreaterThan(200);
    // What Express still scans one by one: middleware and a handful of routes.
    expect(stack.length).toBeLessThan(40);
    expect(new RouteTable(app).all().length).toBeGreaterThanOrEqual(all.length);
    await api(app).get('/').expect(200);
    await api(app).get('/SHIPMENTS').expect(401);
    await api(app).get('/shipments/').expect(401);
    await api(app).get('/no-such-thing').expect(404);
    await api(app).delete('/shipments').expect(405).expect('Allow', 'GET, POST');
    await request(app.getHttpServer())
      .options('/shipments')
      .expect(405)
      .expect('Allow', 'GET, POST');
  });
});
