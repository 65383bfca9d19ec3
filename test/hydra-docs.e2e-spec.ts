import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('entry point and documentation', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => closeTestApp(app));

  it('GET / lists every resource collection', async () => {
    const res = await api(app).get('/').expect(200);
    expect(res.body).toMatchObject({
      '@context': '/contexts/Entrypoint',
      '@id': '/',
      '@type': 'Entrypoint',
      workspace: '/workspaces',
    });
    expect(res.headers.link).toContain('rel="http://www.w3.org/ns/hydra/core#apiDocumentation"');
  });

  it('answers the entry point in JSON-LD or JSON, sends browsers to /docs, refuses the rest', async () => {
    const index = await api(app).get('/index.jsonld').expect(200);
    expect(index.body['@type']).toBe('Entrypoint');
    expect(index.headers['content-type']).toMatch(/^application\/ld\+json/);
    const json = await api(app).json().get('/').expect(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.headers.link).toContain('apiDocumentation');
    expect(json.body).toMatchObject({ '@type': 'Entrypoint', workspace: '/workspaces' });
    for (const path of ['/', '/index.jsonld']) {
      const browser = await api(app, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' })
        .get(path)
        .expect(302);
      expect(browser.headers.location).toBe('/docs');
      const xml = await api(app, { accept: 'application/xml' }).get(path).expect(406);
      expect(xml.body['hydra:description']).toContain('application/ld+json');
    }
    await api(app, { accept: 'text/html' }).get('/docs.jsonld').expect(406);
    await api(app, { accept: 'text/csv' }).get('/contexts/Workspace').expect(406);
  });

  it('serves /contexts/<Resource> with references typed @id', async () => {
    const res = await api(app).get('/contexts/Workspace').expect(200);
    expect(res.body['@context']).toMatchObject({
      hydra: 'http://www.w3.org/ns/hydra/core#',
      title: 'Workspace/title',
      team: { '@id': 'Workspace/team', '@type': '@id' },
    });
    expect(res.body['@context']['@vocab']).toMatch(/\/docs\.jsonld#$/);
    expect(res.headers.link).toContain('apiDocumentation');
    const named = await api(app).json().get('/contexts/Workspace.jsonld').expect(200);
    expect(named.headers['content-type']).toMatch(/^application\/json/);
    // Each supertest request listens on its own port: the vocabulary's origin differs.
    expect({ ...named.body['@context'], '@vocab': '' }).toEqual({
      ...res.body['@context'],
      '@vocab': '',
    });
    for (const name of ['Entrypoint', 'Error', 'ConstraintViolationList'])
      expect((await api(app).get(`/contexts/${name}`).expect(200)).body['@context']).toBeDefined();
    const unknown = await api(app).get('/contexts/Nope').expect(404);
    expect(unknown.body['@type']).toBe('hydra:Error');
  });

  it('serves the hydra:ApiDocumentation with a versioned description', async () => {
    const res = await api(app).get('/docs.jsonld').expect(200);
    expect(res.body['@type']).toBe('hydra:ApiDocumentation');
    expect(res.body.version).toMatch(
      /^v\d+\.\d+\.\d+-\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/,
    );
    const workspace = res.body['hydra:supportedClass'].find(
      (c: { '@id': string }) => c['@id'] === '#Workspace',
    );
    const title = workspace['hydra:supportedProperty'].find(
      (p: { 'hydra:title': string }) => p['hydra:title'] === 'title',
    );
    expect(title).toMatchObject({ 'hydra:readable': true, 'hydra:writeable': true });
  });

  it('serves OpenAPI 3 generated from the declarations, and Swagger UI', async () => {
    const res = await api(app).json().get('/docs.json').expect(200);
    expect(res.body.openapi).toBe('3.0.3');
    expect(res.body.info.version).toMatch(/^v\d+\.\d+\.\d+-/);
    const list = res.body.paths['/workspaces'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'itemsPerPage', 'order[createdAt]']),
    );
    expect(res.body.paths['/teams/{id}/workspaces'].get).toBeDefined();
    expect(res.body.components.schemas['Workspace-post'].properties.title).toEqual({
      type: 'string',
    });
    const ui = await api(app, { accept: 'text/html' }).get('/docs').expect(200);
    expect(ui.text).toContain('swagger');
  });
});
