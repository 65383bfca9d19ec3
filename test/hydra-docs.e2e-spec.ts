import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

/** The app built with these environment variables, as a start-up would read them. */
async function appWith(env: Record<string, string>): Promise<NestExpressApplication> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await createTestApp();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

describe('the documentation URL behind a proxy', () => {
  it('is PUBLIC_URL’s when set, whatever the Host', async () => {
    const app = await appWith({ PUBLIC_URL: 'https://api.example.com/' });
    try {
      const res = await api(app).get('/').set('Host', 'internal:8080').expect(200);
      expect(res.headers.link).toBe(
        '<https://api.example.com/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"',
      );
      const ctx = await api(app).get('/contexts/Shipment').expect(200);
      expect(ctx.body['@context']['@vocab']).toBe('https://api.example.com/docs.jsonld#');
    } finally {
      await closeTestApp(app);
    }
  });

  it('takes the scheme the trusted proxy forwards (TRUST_PROXY)', async () => {
    const app = await appWith({ TRUST_PROXY: 'loopback' });
    try {
      const res = await api(app)
        .get('/')
        .set('Host', 'api.example.org')
        .set('X-Forwarded-Proto', 'https')
        .expect(200);
      expect(res.headers.link).toMatch(/^<https:\/\/api\.example\.org\/docs\.jsonld>;/);
    } finally {
      await closeTestApp(app);
    }
  });
});

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

  it('names the documentation by an absolute URL, the base of its ids and of every vocabulary', async () => {
    const res = await api(app).get('/').expect(200);
    const link =
      /^<(http:\/\/127\.0\.0\.1:\d+\/docs\.jsonld)>; rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation"$/.exec(
        res.headers.link,
      );
    expect(link).not.toBeNull();
    // Records carry it too (API Platform's parser refuses a relative one).
    const countries = await api(app).get('/public/carriers').expect(200);
    expect(countries.headers.link).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/docs\.jsonld>/);
    const docs = await api(app).get('/docs.jsonld').expect(200);
    const [, url] = /^<([^>]+)>/.exec(docs.headers.link)!;
    expect(docs.body['@context']).toMatchObject({ '@base': url, '@vocab': `${url}#` });
    const context = await api(app).get('/contexts/Entrypoint').expect(200);
    const [, contextUrl] = /^<([^>]+)>/.exec(context.headers.link)!;
    expect(context.body['@context']['@vocab']).toBe(`${contextUrl}#`);
  });

  it('types the view links and the entry point as IRIs in every context', async () => {
    for (const name of ['Shipment', 'Entrypoint', 'Error']) {
      const ctx = (await api(app).get(`/contexts/${name}`).expect(200)).body['@context'];
      for (const term of ['first', 'last', 'previous', 'next', 'entrypoint'])
        expect(ctx[`hydra:${term}`]).toEqual({ '@id': `hydra:${term}`, '@type': '@id' });
    }
    const docs = (await api(app).get('/docs.jsonld').expect(200)).body;
    expect(docs['@context']['hydra:entrypoint']).toEqual({
      '@id': 'hydra:entrypoint',
      '@type': '@id',
    });
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
