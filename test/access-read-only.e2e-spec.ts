import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { Tenant, createTenant } from './factories/tenant.factory';

/** A workspace member with `read` access sees the workspace's records but changes nothing. */
describe('read-only workspace members', () => {
  let app: NestExpressApplication;
  let reader: Tenant;
  let shipmentIri: string;

  beforeAll(async () => {
    app = await createTestApp();
    reader = await createTenant(app, { role: 'member' });
    const db = app.get(DataSource);
    await db.query(`UPDATE workspace_member SET access_level = 'read' WHERE user_id = $1`, [
      reader.userId,
    ]);
    const [s] = await db.query(
      `INSERT INTO shipment (workspace_id, tracking_number, next_check_at) VALUES ($1, 'RO1', NULL) RETURNING id`,
      [reader.workspaceId],
    );
    shipmentIri = `/shipments/${s.id}`;
  });
  afterAll(() => closeTestApp(app));

  it('reads', async () => {
    const res = await api(app, { token: reader.token }).get('/shipments').expect(200);
    expect(res.body['hydra:totalItems']).toBe(1);
    await api(app, { token: reader.token }).get(shipmentIri).expect(200);
  });

  it('cannot create, replace or delete (403), and nothing changes', async () => {
    const workspace = `/workspaces/${reader.workspaceId}`;
    await api(app, { token: reader.token })
      .post('/shipments', { workspace, trackingNumber: 'TM102RO2TM' })
      .expect(403);
    await api(app, { token: reader.token })
      .put(shipmentIri, { email: 'x@example.test' })
      .expect(403);
    await api(app, { token: reader.token }).delete(shipmentIri).expect(403);
    await api(app, { token: reader.token }).put(workspace, { title: 'Mine now' }).expect(403);
    const after = await api(app, { token: reader.token }).get(shipmentIri).expect(200);
    expect(after.body.email).toBeNull();
    expect(
      (await api(app, { token: reader.token }).get('/shipments').expect(200)).body[
        'hydra:totalItems'
      ],
    ).toBe(1);
  });

  it('a full-access member writes', async () => {
    const full = await createTenant(app, { role: 'member' });
    await api(app, { token: full.token })
      .post('/shipments', {
        workspace: `/workspaces/${full.workspaceId}`,
        trackingNumber: 'TM102RO3TM',
      })
      .expect(201);
  });
});
