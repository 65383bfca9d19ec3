import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { Tenant, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('credentials', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  const http = () => api(app, { token: tenant.token });
  const team = () => `/teams/${tenant.teamId}`;

  it('creates credentials, masks secrets on every read and stores them encrypted', async () => {
    const secret = 'whsec_super_secret_value_1234';
    const res = await http()
      .post('/credentials', {
        type: 'webhook',
        team: team(),
        parameters: { url: 'https://hooks.example.com/tracking' },
        secrets: { signingSecret: secret },
      })
      .expect(201);
    expect(res.headers.location).toBe(`/credentials/${res.body.id}`);
    expect(res.body).toMatchObject({
      '@type': 'Credentials',
      type: 'webhook',
      team: team(),
      parameters: { url: 'https://hooks.example.com/tracking' },
      secrets: { signingSecret: '********1234' },
      tags: ['webhook'],
      visible: false,
    });
    const read = await http().get(`/credentials/${res.body.id}`).expect(200);
    const list = await http().get(`/teams/${tenant.teamId}/credentials`).expect(200);
    const csv = await api(app, { token: tenant.token, accept: 'text/csv' })
      .get('/credentials')
      .expect(200);
    for (const text of [JSON.stringify(read.body), JSON.stringify(list.body), csv.text]) {
      expect(text).not.toContain('super_secret');
    }
    const [row] = await db.query(
      `SELECT secrets_ciphertext, secret_hints::text AS hints FROM credentials WHERE id = $1`,
      [res.body.id],
    );
    expect(row.secrets_ciphertext).toMatch(/^v2:[0-9a-f]{8}:/);
    expect(row.secrets_ciphertext).not.toContain('super_secret');
    expect(row.hints).not.toContain('super_secret');
  });

  it('PUT keeps secrets left out, replaces given ones and removes nulled ones', async () => {
    const created = await http()
      .post('/credentials', {
        type: 'smtp',
        team: team(),
        parameters: { host: 'smtp.example.com', port: 587 },
        secrets: { password: 'first-password-1111' },
      })
      .expect(201);
    const id = created.body.id;
    // Same server, another user name: the password stays (a new server drops it, see
    // test/security/credentials-access.e2e-spec.ts).
    const kept = await http()
      .put(`/credentials/${id}`, {
        parameters: { host: 'smtp.example.com', port: 587, username: 'mailer' },
      })
      .expect(200);
    expect(kept.body.secrets).toEqual({ password: '********1111' });
    expect(kept.body.parameters).toEqual({
      host: 'smtp.example.com',
      port: 587,
      username: 'mailer',
    });
    const replaced = await http()
      .put(`/credentials/${id}`, { secrets: { password: 'second-password-2222' } })
      .expect(200);
    expect(replaced.body.secrets).toEqual({ password: '********2222' });
    const removed = await http()
      .put(`/credentials/${id}`, { secrets: { password: null } })
      .expect(200);
    expect(removed.body.secrets).toEqual({});
    // type and team are POST-only: ignored on PUT.
    const same = await http()
      .put(`/credentials/${id}`, { type: 'shopify', team: null })
      .expect(200);
    expect(same.body.type).toBe('smtp');
  });

  it('rejects unknown types, unexpected members and mistyped values with 422, never echoing secrets', async () => {
    const bad = await http().post('/credentials', { type: 'ftp', team: team() }).expect(422);
    expect(bad.body.violations[0]).toMatchObject({ propertyPath: 'type' });
    const members = await http()
      .post('/credentials', {
        type: 'smtp',
        team: team(),
        parameters: { host: 'not a host!', port: 'x', colour: 'red' },
        secrets: { password: 12345678901234, apiKey: 'leak-me-please-9999' },
      })
      .expect(422);
    const paths = members.body.violations.map((v: { propertyPath: string }) => v.propertyPath);
    expect(paths).toEqual(
      expect.arrayContaining([
        'parameters.host',
        'parameters.port',
        'parameters.colour',
        'secrets.password',
        'secrets.apiKey',
      ]),
    );
    expect(JSON.stringify(members.body)).not.toContain('leak-me-please');
    expect(JSON.stringify(members.body)).not.toContain('12345678901234');
    await http().post('/credentials', { type: 'smtp' }).expect(422);
    const short = await http()
      .post('/credentials', { type: 'webhook', team: team(), secrets: { signingSecret: 'short' } })
      .expect(422);
    expect(short.body.violations[0]).toMatchObject({
      propertyPath: 'secrets.signingSecret',
      message: 'This value is too short. It should have 16 characters or more.',
    });
    await http().post('/credentials', { type: 'smtp', team: team(), secrets: 'x' }).expect(400);
  });

  it('lists a team’s credentials with type, tag, onlyVisibleTypes and order filters', async () => {
    const make = (type: string) => http().post('/credentials', { type, team: team() }).expect(201);
    const smtp = (await make('smtp')).body.id;
    const shopify = (await make('shopify')).body.id;
    const hook = (await make('webhook')).body.id;
    const ids = async (query: string) =>
      (await http().get(`/teams/${tenant.teamId}/credentials${query}`).expect(200)).body[
        'hydra:member'
      ].map((m: { id: string }) => m.id);
    expect(await ids('')).toEqual([smtp, shopify, hook]); // default: createdAt asc
    expect(await ids('?order[createdAt]=desc')).toEqual([hook, shopify, smtp]);
    expect(await ids('?type=shopify')).toEqual([shopify]);
    expect(await ids('?type[]=shopify&type[]=webhook')).toEqual([shopify, hook]);
    expect(await ids('?tag=email')).toEqual([smtp]);
    expect(await ids('?onlyVisibleTypes=true')).toEqual([smtp, shopify]);
    expect(await ids('?onlyVisibleTypes=false')).toEqual([smtp, shopify, hook]);
    const res = await http()
      .get(`/teams/${tenant.teamId}/credentials?itemsPerPage=100000`)
      .expect(200);
    expect(res.body['hydra:view']['@id']).toContain('itemsPerPage=100000');
    const template = res.body['hydra:search']['hydra:template'];
    expect(template).toContain('onlyVisibleTypes');
    expect(template).toContain('order[updatedAt]');
  });

  it('caps itemsPerPage at 50000 on /teams/{id}/credentials and 500 elsewhere', async () => {
    await db.query(
      `INSERT INTO credentials (team_id, type, tags) SELECT $1, 'smtp', '{email}' FROM generate_series(1, 501)`,
      [tenant.teamId],
    );
    const nested = await http()
      .get(`/teams/${tenant.teamId}/credentials?itemsPerPage=60000`)
      .expect(200);
    expect(nested.body['hydra:member']).toHaveLength(501);
    const flat = await http().get('/credentials?itemsPerPage=60000').expect(200);
    expect(flat.body['hydra:member']).toHaveLength(500);
    expect(flat.body['hydra:totalItems']).toBe(501);
    const docs = await api(app, { accept: 'application/json' }).get('/docs.json').expect(200);
    const max = (path: string) =>
      docs.body.paths[path].get.parameters.find((p: { name: string }) => p.name === 'itemsPerPage')
        .schema.maximum;
    expect(max('/teams/{id}/credentials')).toBe(50000);
    expect(max('/credentials')).toBe(500);
  });

  it('hides other teams’ credentials (404) and refuses deleting credentials in use', async () => {
    const other = await createTenant(app);
    const mine = await http()
      .post('/credentials', {
        type: 'webhook',
        team: team(),
        parameters: { url: 'https://hooks.example.com/x' },
        secrets: { signingSecret: 'secret-secret-secret' },
      })
      .expect(201);
    const foreign = api(app, { token: other.token });
    await foreign.get(`/credentials/${mine.body.id}`).expect(404);
    await foreign.put(`/credentials/${mine.body.id}`, { parameters: {} }).expect(404);
    await foreign.delete(`/credentials/${mine.body.id}`).expect(404);
    await foreign.get(`/teams/${tenant.teamId}/credentials`).expect(404);
    await foreign.post('/credentials', { type: 'smtp', team: team() }).expect(422);

    await http()
      .post('/workflows', {
        title: 'Hook',
        type: 'webhook',
        workspace: `/workspaces/${tenant.workspaceId}`,
        period: 'immediately',
        enabled: true,
        credentials: mine.body['@id'],
      })
      .expect(201);
    const refused = await http().delete(`/credentials/${mine.body.id}`).expect(422);
    expect(refused.body['hydra:description']).toMatch(/used by 1 workflow/);
    const unused = await http().post('/credentials', { type: 'smtp', team: team() }).expect(201);
    await http().delete(`/credentials/${unused.body.id}`).expect(204);
    await http().get(`/credentials/${unused.body.id}`).expect(404);
  });
});
