import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { createShipment, createStatus } from './factories/commerce.factory';

describe('statuses', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  it('creates, reads, replaces and deletes a status', async () => {
    const created = await createStatus(app, tenant, { code: ' new ', title: 'New' });
    expect(created).toMatchObject({
      '@type': 'Status',
      code: 'new',
      title: 'New',
      entity: 'shipments',
      workspace: `/workspaces/${tenant.workspaceId}`,
    });
    const http = api(app, { token: tenant.token });
    await http.get(created['@id']).expect(200);
    const put = await http
      .put(created['@id'], { code: 'fresh', title: 'Fresh', entity: 'orders' })
      .expect(200);
    expect(put.body).toMatchObject({ code: 'fresh', title: 'Fresh', entity: 'shipments' });
    await http.delete(created['@id']).expect(204);
    await http.get(created['@id']).expect(404);
  });

  it('requires workspace, entity and code, and keeps codes unique per workspace and entity', async () => {
    const http = api(app, { token: tenant.token });
    const res = await http.post('/statuses', { entity: 'boxes', code: '' }).expect(422);
    expect(res.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(
      ['code', 'entity', 'workspace'],
    );
    await createStatus(app, tenant, { code: 'new' });
    const dup = await http
      .post('/statuses', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        entity: 'shipments',
        code: 'new',
      })
      .expect(422);
    expect(dup.body.violations[0].propertyPath).toBe('code');
    // The same code for the other entity, or in another workspace, is fine.
    await createStatus(app, tenant, { code: 'new', entity: 'orders' });
    const other = await addWorkspace(app, tenant);
    await http
      .post('/statuses', { workspace: `/workspaces/${other}`, entity: 'shipments', code: 'new' })
      .expect(201);
  });

  it('filters and orders by entity, code and title, on nested routes too', async () => {
    await createStatus(app, tenant, { code: 'b', title: 'Bravo' });
    await createStatus(app, tenant, { code: 'a', title: 'Alpha' });
    await createStatus(app, tenant, { code: 'c', title: 'Charlie', entity: 'orders' });
    const http = api(app, { token: tenant.token });
    const codes = async (path: string) =>
      (await http.get(path).expect(200)).body['hydra:member'].map((s: { code: string }) => s.code);
    expect(await codes('/statuses?entity=shipments&order[code]=asc')).toEqual(['a', 'b']);
    expect(await codes('/statuses?code=c')).toEqual(['c']);
    expect(await codes('/statuses?title=Bravo')).toEqual(['b']);
    expect(await codes('/statuses?order[title]=desc')).toEqual(['c', 'b', 'a']);
    expect(await codes('/statuses?order[entity]=asc&order[code]=desc')).toEqual(['c', 'b', 'a']);
    expect(await codes(`/workspaces/${tenant.workspaceId}/statuses?order[code]=asc`)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(
      await codes(
        `/teams/${tenant.teamId}/workspaces/${tenant.workspaceId}/statuses?entity=orders`,
      ),
    ).toEqual(['c']);
    const res = await http.get('/statuses').expect(200);
    expect(res.body['hydra:search']['hydra:template']).toBe(
      '/statuses{?entity,code,title,order[entity],order[code],order[title]}',
    );
  });

  it('hides statuses of other tenants', async () => {
    const status = await createStatus(app, tenant, { code: 'mine' });
    const other = await createTenant(app);
    const http = api(app, { token: other.token });
    await http.get(status['@id']).expect(404);
    await http.put(status['@id'], { code: 'x' }).expect(404);
    await http.delete(status['@id']).expect(404);
    await http.get(`/workspaces/${tenant.workspaceId}/statuses`).expect(404);
    const res = await http.post('/statuses/check-references', { statusId: status.id }).expect(422);
    expect(res.body.violations[0].propertyPath).toBe('statusId');
    await http
      .post('/statuses', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        entity: 'shipments',
        code: 'x',
      })
      .expect(422);
  });

  it('counts references, refuses to delete a used status, migrates references', async () => {
    const http = api(app, { token: tenant.token });
    const a = await createShipment(app, tenant, { shipmentStatus: { code: 'old', title: 'Old' } });
    await createShipment(app, tenant, { shipmentStatus: { code: 'old' } });
    const oldId = a.shipmentStatus.id;
    const target = await createStatus(app, tenant, { code: 'new' });

    const check = await http
      .post('/statuses/check-references', {
        workspaceId: tenant.workspaceId,
        statusId: oldId,
      })
      .expect(200);
    expect(check.body).toEqual({ refsCount: 2 });

    const refused = await http.delete(`/statuses/${oldId}`).expect(422);
    expect(refused.body['hydra:description']).toMatch(/used by 2 shipments/);
    await http.get(`/statuses/${oldId}`).expect(200);

    const orderStatus = await createStatus(app, tenant, { code: 'paid', entity: 'orders' });
    await http
      .post('/statuses/migrate-references', { fromStatusId: oldId, toStatusId: orderStatus.id })
      .expect(422);
    await http
      .post('/statuses/migrate-references', { fromStatusId: oldId, toStatusId: oldId })
      .expect(422);
    const migrated = await http
      .post('/statuses/migrate-references', {
        workspaceId: tenant.workspaceId,
        fromStatusId: `/statuses/${oldId}`,
        toStatusId: target['@id'],
      })
      .expect(200);
    expect(migrated.body).toEqual({ updatedRefsCount: 2 });
    const moved = await http.get(a['@id']).expect(200);
    expect(moved.body.shipmentStatus).toMatchObject({ id: target.id, code: 'new' });
    await http.delete(`/statuses/${oldId}`).expect(204);
  });

  it('validates the check-references payload', async () => {
    const http = api(app, { token: tenant.token });
    const res = await http.post('/statuses/check-references', {}).expect(422);
    expect(res.body.violations[0]).toMatchObject({
      propertyPath: 'statusId',
      message: 'This value should not be blank.',
    });
    const status = await createStatus(app, tenant, { code: 's' });
    const other = await addWorkspace(app, tenant);
    await http
      .post('/statuses/check-references', { workspaceId: other, statusId: status.id })
      .expect(422);
    await http.post('/statuses/check-references', { statusId: 42 }).expect(422);
  });
});
