import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { Tenant, createTenant } from './factories/tenant.factory';

describe('hydra errors, formats and bodies', () => {
  let app: NestExpressApplication;
  let t: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    t = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  const raw = () => request(app.getHttpServer());

  it('400 Syntax error for a malformed body, in JSON-LD and problem+json', async () => {
    const ld = await raw()
      .post('/workspaces')
      .set('Authorization', `Bearer ${t.token}`)
      .set('Content-Type', 'application/ld+json')
      .send('{"title":')
      .expect(400);
    expect(ld.body).toEqual({
      '@context': '/contexts/Error',
      '@type': 'hydra:Error',
      'hydra:title': 'An error occurred',
      'hydra:description': 'Syntax error',
    });
    const json = await raw()
      .post('/workspaces')
      .set('Authorization', `Bearer ${t.token}`)
      .set('Accept', 'application/json')
      .set('Content-Type', 'application/json')
      .send('{"title":')
      .expect(400);
    expect(json.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(json.body).toMatchObject({
      title: 'An error occurred',
      detail: 'Syntax error',
      status: 400,
    });
  });

  it('400 for a wrong attribute type with API Platform message, nothing written', async () => {
    const res = await api(app, { token: t.token }).post('/workspaces', { title: 42 }).expect(400);
    expect(res.body['hydra:description']).toBe(
      'The type of the "title" attribute must be "string", "int" given.',
    );
    const list = await api(app, { token: t.token }).get('/workspaces').expect(200);
    expect(list.body['hydra:totalItems']).toBe(1);
  });

  it('400 for a nested object where an IRI is expected, and for an invalid IRI', async () => {
    const nested = await api(app, { token: t.token }).post('/workspace_members', {}).expect(405);
    expect(nested.headers.allow).toContain('GET');
    const bad = await api(app, { token: t.token })
      .post('/workspaces', { title: 'x', team: 'not-an-iri' })
      .expect(400);
    expect(bad.body['hydra:description']).toBe('Invalid IRI "not-an-iri".');
  });

  it('422 naming the property for a missing or foreign reference', async () => {
    const other = await createTenant(app);
    const res = await api(app, { token: t.token })
      .post('/workspaces', { title: 'x', team: `/teams/${other.teamId}` })
      .expect(422);
    expect(res.body.violations).toEqual([
      { propertyPath: 'team', message: `Item not found for "/teams/${other.teamId}".`, code: null },
    ]);
  });

  it('ignores unknown and read-only attributes', async () => {
    const res = await api(app, { token: t.token })
      .put(`/workspaces/${t.workspaceId}`, {
        title: 'Renamed',
        unknown: 1,
        id: '00000000-0000-4000-8000-000000000000',
        scheduledForDelete: true,
        team: '/teams/whatever',
      })
      .expect(200);
    expect(res.body).toMatchObject({
      id: t.workspaceId,
      title: 'Renamed',
      scheduledForDelete: false,
      team: `/teams/${t.teamId}`,
    });
  });

  it('reads application/x-www-form-urlencoded and multipart bodies', async () => {
    const form = await raw()
      .put(`/workspaces/${t.workspaceId}`)
      .set('Authorization', `Bearer ${t.token}`)
      .type('form')
      .send({ title: 'From a form' })
      .expect(200);
    expect(form.body.title).toBe('From a form');
    const multi = await raw()
      .put(`/workspaces/${t.workspaceId}`)
      .set('Authorization', `Bearer ${t.token}`)
      .field('title', 'From multipart')
      .expect(200);
    expect(multi.body.title).toBe('From multipart');
  });

  it('415 for a body type we do not read, 406 for an Accept we cannot serve', async () => {
    const r415 = await raw()
      .put(`/workspaces/${t.workspaceId}`)
      .set('Authorization', `Bearer ${t.token}`)
      .set('Content-Type', 'text/plain')
      .send('title=x')
      .expect(415);
    expect(r415.body['@type']).toBe('hydra:Error');
    await raw()
      .get('/workspaces')
      .set('Authorization', `Bearer ${t.token}`)
      .set('Accept', 'application/xml')
      .expect(406);
  });

  it('404 for unknown routes and unknown ids, 405 with Allow for a missing method', async () => {
    const r404 = await api(app, { token: t.token }).get('/nowhere').expect(404);
    expect(r404.body['hydra:description']).toBe('Not Found');
    await api(app, { token: t.token })
      .get('/workspaces/00000000-0000-4000-8000-000000000000')
      .expect(404);
    await api(app, { token: t.token }).get('/workspaces/not-a-uuid').expect(404);
    const r405 = await api(app, { token: t.token }).delete('/workspaces').expect(405);
    expect(r405.headers.allow).toContain('POST');
  });

  it('401 with WWW-Authenticate: Bearer for a bad token', async () => {
    const res = await api(app, { token: 'nope' }).get('/workspaces').expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.body['@type']).toBe('hydra:Error');
    // Hydra clients (API Platform Admin) read an error through the documentation it names.
    expect(res.headers.link).toMatch(
      /^<http:\/\/127\.0\.0\.1:\d+\/docs\.jsonld>; rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation"$/,
    );
  });

  it('serves items and collections as JSON, CSV and HTML', async () => {
    const json = await api(app, { token: t.token, accept: 'application/json' })
      .get('/workspaces')
      .expect(200);
    expect(Array.isArray(json.body)).toBe(true);
    expect(json.body[0]['@id']).toBeUndefined();
    const csv = await api(app, { token: t.token, accept: 'text/csv' })
      .get('/workspaces')
      .expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const header = csv.text.split('\n')[0].split(',');
    expect(header.slice(0, 3)).toEqual(['id', 'team', 'title']);
    expect(header).toEqual(
      expect.arrayContaining(['logo.id', 'logo.filePath', 'scheduledForDelete', 'createdAt']),
    );
    expect(csv.text).toContain(t.workspaceId);
    const item = await api(app, { token: t.token, accept: 'text/csv' })
      .get(`/workspaces/${t.workspaceId}`)
      .expect(200);
    expect(item.text).toContain(t.workspaceId);
    const html = await api(app, { token: t.token, accept: 'text/html' })
      .get('/workspaces')
      .expect(200);
    expect(html.text).toContain('<table>');
  });

  it('DELETE answers 204 with no body; POST answers 201 with Location', async () => {
    const created = await api(app, { token: t.token })
      .post('/teams', { name: 'Temp team' })
      .expect(201);
    expect(created.headers['content-location']).toBe(created.body['@id']);
    const del = await api(app, { token: t.token }).delete(created.body['@id']).expect(204);
    expect(del.text).toBe('');
    await api(app, { token: t.token }).get(created.body['@id']).expect(404);
  });
});
