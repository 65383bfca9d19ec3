import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { Tenant, createTenant } from './factories/tenant.factory';

describe('hydra layer on workspaces', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  it('lists the caller workspaces as a hydra collection', async () => {
    const res = await api(app, { token: tenant.token }).get('/workspaces').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
    expect(res.body['@type']).toBe('hydra:Collection');
    expect(res.body['hydra:totalItems']).toBe(1);
    expect(res.body['hydra:member'][0]).toMatchObject({
      '@id': `/workspaces/${tenant.workspaceId}`,
      '@type': 'Workspace',
      team: `/teams/${tenant.teamId}`,
    });
    expect(res.body['hydra:search']['hydra:template']).toBe('/workspaces{?order[createdAt]}');
  });

  it('creates a workspace with a new team given as an object', async () => {
    const res = await api(app, { token: tenant.token })
      .post('/workspaces', { title: 'Outlet', team: { name: 'Outlet team' } })
      .expect(201);
    expect(res.headers.location).toBe(res.body['@id']);
    expect(res.body.title).toBe('Outlet');
    expect(res.body.team).not.toBe(`/teams/${tenant.teamId}`);
  });

  it('answers 422 with a ConstraintViolationList', async () => {
    const res = await api(app, { token: tenant.token })
      .post('/workspaces', { title: '' })
      .expect(422);
    expect(res.body['@type']).toBe('ConstraintViolationList');
    expect(res.body.violations).toContainEqual(
      expect.objectContaining({
        propertyPath: 'title',
        message: 'This value should not be blank.',
      }),
    );
  });

  it('answers 401 without token and 404 for another tenant', async () => {
    await api(app).get('/workspaces').expect(401);
    const other = await createTenant(app);
    await api(app, { token: other.token }).get(`/workspaces/${tenant.workspaceId}`).expect(404);
  });
});
