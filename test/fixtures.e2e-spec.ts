import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createTenant, issueToken } from './factories/tenant.factory';

describe('POST /test/load-fixtures', () => {
  describe('with ENABLE_TEST_FIXTURES=true', () => {
    let app: NestExpressApplication;
    let db: DataSource;

    beforeAll(async () => {
      process.env.ENABLE_TEST_FIXTURES = 'true';
      app = await createTestApp();
      db = app.get(DataSource);
    });
    afterAll(() => closeTestApp(app));

    it('loads the demo dataset for the caller through the API’s own rules', async () => {
      const t = await createTenant(app);
      const res = await api(app, { token: t.token }).post('/test/load-fixtures', {}).expect(201);
      expect(res.body).toMatchObject({
        '@type': 'FixturesImportResult',
        created: 19,
        recreated: 0,
        skipped: 0,
        processed: 19,
      });
      expect(res.body.users[0]).toBe(`/users/${t.userId}`);
      expect(res.body.statuses).toHaveLength(6);
      expect(res.body.orders).toHaveLength(3);
      expect(res.body.shipments).toHaveLength(7);

      const as = api(app, { token: t.token });
      const team = await as.get(res.body.team).expect(200);
      expect(team.body).toMatchObject({ name: 'Demo team', workspacesCount: 1, usersCount: 2 });
      const shipments = await as
        .get(`${res.body.workspace}/shipments?order[trackingNumber]=asc&itemsPerPage=10`)
        .expect(200);
      const byNumber = Object.fromEntries(
        shipments.body['hydra:member'].map((s: Record<string, unknown>) => [s.trackingNumber, s]),
      );
      // The sandbox provider tracked every test number on create.
      expect(byNumber.TM200DEMO0004TM).toMatchObject({
        trackingStatus: 'delivered',
        shipmentStatus: expect.objectContaining({ code: 'delivered', title: 'Delivered' }),
      });
      expect(byNumber.TM102DEMO0002TM.trackingStatus).toBe('in_transit');
      expect(byNumber.TM418DEMO0001TM.trackingStatus).toBe('pre_transit');
      expect(byNumber.TM302DEMO0006TM.trackingStatus).toBe('return_to_sender');
      expect(shipments.body['hydra:totalItems']).toBe(7);
      const order = await as.get(res.body.orders[0]).expect(200);
      expect(order.body).toMatchObject({
        orderNumber: 'DEMO-1001',
        total: '64.90',
        orderStatus: expect.objectContaining({ code: 'completed' }),
      });
      expect(order.body.shipments).toHaveLength(2);

      // The demo teammate sees the demo workspace only.
      const teammate = await issueToken(app, res.body.users[1].split('/').pop());
      const visible = await api(app, { token: teammate }).get('/workspaces').expect(200);
      expect(visible.body['hydra:member'].map((w: { '@id': string }) => w['@id'])).toEqual([
        res.body.workspace,
      ]);
    });

    it('replaces the previous demo dataset on a second load, leaving other teams alone', async () => {
      const t = await createTenant(app);
      const first = await api(app, { token: t.token }).post('/test/load-fixtures').expect(201);
      const second = await api(app, { token: t.token })
        .json()
        .post('/test/load-fixtures', { dataset: 'demo' })
        .expect(201);
      expect(second.body).toMatchObject({ created: 19, recreated: 19 });
      expect(second.body.team).not.toBe(first.body.team);
      await api(app, { token: t.token }).get(first.body.team).expect(404);
      const [gone] = await db.query(`SELECT count(*)::int AS n FROM "user" WHERE id = $1`, [
        first.body.users[1].split('/').pop(),
      ]);
      expect(gone.n).toBe(0);
      await api(app, { token: t.token }).get(`/workspaces/${t.workspaceId}`).expect(200);
    });

    it('needs a token and refuses what it cannot do', async () => {
      const unauthenticated = await request(app.getHttpServer())
        .post('/test/load-fixtures')
        .send({})
        .expect(401);
      expect(unauthenticated.headers['www-authenticate']).toMatch(/^Bearer/);
      await request(app.getHttpServer())
        .post('/test/load-fixtures')
        .set('Authorization', 'Bearer not-a-token')
        .send({})
        .expect(401);
      const t = await createTenant(app);
      const as = api(app, { token: t.token });
      const content = await as
        .post('/test/load-fixtures', { content: 'App\\Entity\\User: {}' })
        .expect(422);
      expect(content.body.violations[0].propertyPath).toBe('content');
      await as.post('/test/load-fixtures', { dataset: 'huge' }).expect(422);
      await as.post('/test/load-fixtures', { dataset: 3 }).expect(400);
    });
  });

  describe('without ENABLE_TEST_FIXTURES', () => {
    let app: NestExpressApplication;

    beforeAll(async () => {
      delete process.env.ENABLE_TEST_FIXTURES;
      app = await createTestApp();
    });
    afterAll(() => closeTestApp(app));

    it('answers 404 to everyone', async () => {
      const t = await createTenant(app);
      await api(app, { token: t.token }).post('/test/load-fixtures', {}).expect(404);
      await request(app.getHttpServer()).post('/test/load-fixtures').send({}).expect(404);
    });
  });
});
