import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { PNG, uniqueSubdomain } from './factories/media.factory';
import { Tenant, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

/** A read-only workspace member reads fields, notes and pages but writes none (403). */
describe('read-only workspace members on custom write routes', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let owner: Tenant;
  let reader: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    owner = await createTenant(app);
    reader = await createTenant(app);
    await db.query(`INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, 'member')`, [
      owner.teamId,
      reader.userId,
    ]);
    await db.query(
      `INSERT INTO workspace_member (workspace_id, user_id, access_level) VALUES ($1, $2, 'read')`,
      [owner.workspaceId, reader.userId],
    );
  });
  afterAll(() => closeTestApp(app));

  it('answers 403 and changes nothing', async () => {
    const as = api(app, { token: owner.token });
    const workspace = `/workspaces/${owner.workspaceId}`;
    await as
      .post('/fields', { code: 'ro', workspace, entity: 'orders', title: 'RO', fieldType: 'text' })
      .expect(201);
    await as
      .post('/fields_layouts', { code: 'ro', workspace, entity: 'orders', title: 'RO', fields: [] })
      .expect(201);
    const page = await as
      .post('/tracking_pages', { workspace, subdomain: uniqueSubdomain('ro') })
      .expect(201);
    const [order] = await db.query(
      `INSERT INTO "order" (workspace_id, order_type) VALUES ($1, 'customer') RETURNING id`,
      [owner.workspaceId],
    );
    const [shipment] = await db.query(
      `INSERT INTO shipment (workspace_id, tracking_number) VALUES ($1, 'TMREADONLY1') RETURNING id`,
      [owner.workspaceId],
    );
    const note = await as
      .post('/notes', { workspace, entity: 'orders', entityId: order.id, comment: 'x' })
      .expect(201);

    const ro = api(app, { token: reader.token });
    await ro.get('/fields/ro').expect(200);
    await ro.get('/fields_layouts/ro').expect(200);
    await ro.get(note.body['@id']).expect(200);
    await ro
      .post('/fields', { code: 'x', workspace, entity: 'orders', title: 'X', fieldType: 'text' })
      .expect(403);
    await ro.put('/fields/ro', { title: 'changed' }).expect(403);
    await ro.delete('/fields/ro').expect(403);
    await ro
      .post('/fields_layouts', { code: 'x', workspace, entity: 'orders', title: 'X', fields: [] })
      .expect(403);
    await ro.put('/fields_layouts/ro', { title: 'changed' }).expect(403);
    await ro.delete('/fields_layouts/ro').expect(403);
    await request(app.getHttpServer())
      .post('/media')
      .set('Authorization', `Bearer ${reader.token}`)
      .field('workspace', workspace)
      .attach('file', PNG, 'a.png')
      .expect(403);
    await request(app.getHttpServer())
      .post(`${note.body['@id']}/attachments`)
      .set('Authorization', `Bearer ${reader.token}`)
      .attach('file', PNG, 'a.png')
      .expect(403);
    await ro
      .post('/generate_tracking_page_link', {
        trackingPageId: page.body.id,
        filter: { id: shipment.id },
      })
      .expect(403);

    expect((await as.get('/fields/ro')).body.title).toBe('RO');
    await as.get('/fields_layouts/ro').expect(200);
    const [{ n }] = await db.query(
      `SELECT (SELECT count(*) FROM field WHERE workspace_id = $1) + (SELECT count(*) FROM tracking_page_link WHERE workspace_id = $1) + (SELECT count(*) FROM note_attachment WHERE workspace_id = $1) AS n`,
      [owner.workspaceId],
    );
    expect(Number(n)).toBe(1);
  });
});
