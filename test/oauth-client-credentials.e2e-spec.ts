import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { hashToken } from '../src/access/principal-loader';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createTenant, Tenant } from './factories/tenant.factory';
import { createClient, travel } from './factories/identity.factory';

describe('OAuth clients and the client-credentials grant', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  describe('/oauth_clients', () => {
    it('creates a client and shows its secret once, storing only a hash', async () => {
      const res = await api(app, { token: tenant.token })
        .post('/oauth_clients', { name: 'Shop sync', redirectUris: ['https://app.example/cb'] })
        .expect(201);
      expect(res.body).toMatchObject({
        '@type': 'OauthClient',
        name: 'Shop sync',
        user: `/users/${tenant.userId}`,
        redirectUris: ['https://app.example/cb'],
      });
      expect(res.body.publicId).toMatch(new RegExp(`^${res.body.id}_[\\w-]+$`));
      expect(res.body.secret).toMatch(/^[\w-]{43}$/);

      const [row] = await app
        .get(DataSource)
        .query(`SELECT secret_hash FROM oauth_client WHERE id = $1`, [res.body.id]);
      expect(row.secret_hash).toBe(hashToken(res.body.secret));

      const again = await api(app, { token: tenant.token })
        .get(`/oauth_clients/${res.body.id}`)
        .expect(200);
      expect(again.body.secret).toBeNull();
      expect(again.body.publicId).toBe(res.body.publicId);
    });

    it('lists and shows only the caller’s own clients; another user gets 404', async () => {
      const mine = await createClient(app, tenant, { name: 'Mine' });
      const other = await createTenant(app);
      const theirs = await createClient(app, other, { name: 'Theirs' });

      const list = await api(app, { token: tenant.token }).get('/oauth_clients').expect(200);
      const ids = list.body['hydra:member'].map((c: { id: string }) => c.id);
      expect(ids).toContain(mine.id);
      expect(ids).not.toContain(theirs.id);
      for (const c of list.body['hydra:member']) expect(c.secret).toBeNull();

      await api(app, { token: tenant.token }).get(`/oauth_clients/${theirs.id}`).expect(404);
      await api(app, { token: tenant.token }).delete(`/oauth_clients/${theirs.id}`).expect(404);
      await api(app, { token: other.token }).get(`/oauth_clients/${theirs.id}`).expect(200);
    });

    it('validates name and redirect URIs (422), and refuses another user as owner', async () => {
      const res = await api(app, { token: tenant.token })
        .post('/oauth_clients', { name: '', redirectUris: ['/relative', 'https://ok.example/cb'] })
        .expect(422);
      const paths = res.body.violations.map((v: { propertyPath: string }) => v.propertyPath);
      expect(paths).toEqual(expect.arrayContaining(['name', 'redirectUris']));

      await api(app, { token: tenant.token })
        .post('/oauth_clients', { name: 'x', redirectUris: 'https://ok.example' })
        .expect(400);

      const other = await createTenant(app);
      await api(app, { token: tenant.token })
        .post('/oauth_clients', { name: 'x', user: `/users/${other.userId}` })
        .expect(422);
    });

    it('deleting a client revokes the tokens issued to it', async () => {
      const client = await createClient(app, tenant);
      const token = await request(app.getHttpServer())
        .get('/oauth/v2/token')
        .query({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
        })
        .expect(200);
      await api(app, { token: token.body.access_token }).get('/workspaces').expect(200);
      await api(app, { token: tenant.token }).delete(`/oauth_clients/${client.id}`).expect(204);
      await api(app, { token: token.body.access_token }).get('/workspaces').expect(401);
      await api(app, { token: tenant.token }).get(`/oauth_clients/${client.id}`).expect(404);
    });

    it('needs a bearer token', async () => {
      const res = await api(app).get('/oauth_clients').expect(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });
  });

  describe('token endpoint', () => {
    it('GET /oauth/v2/token with query parameters answers the spec’s token object', async () => {
      const client = await createClient(app, tenant);
      const res = await request(app.getHttpServer())
        .get('/oauth/v2/token')
        .query({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
        })
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        access_token: expect.any(String),
        expires_in: 3600,
        token_type: 'bearer',
        scope: 'user',
        user_id: tenant.userId,
        user_email: tenant.email,
      });

      const [row] = await app
        .get(DataSource)
        .query(`SELECT token_hash, client_id FROM access_token WHERE token_hash = $1`, [
          hashToken(res.body.access_token),
        ]);
      expect(row.client_id).toBe(client.id);

      const workspaces = await api(app, { token: res.body.access_token })
        .get('/workspaces')
        .expect(200);
      expect(workspaces.body['hydra:member'].map((w: { id: string }) => w.id)).toEqual([
        tenant.workspaceId,
      ]);
    });

    it('POST /oauth/v2/token, form-encoded or with HTTP Basic client credentials', async () => {
      const client = await createClient(app, tenant);
      const form = await request(app.getHttpServer())
        .post('/oauth/v2/token')
        .type('form')
        .send({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
        })
        .expect(200);
      expect(form.body).toMatchObject({ token_type: 'bearer', user_id: tenant.userId });

      const basic = await request(app.getHttpServer())
        .post('/oauth/v2/token')
        .auth(client.clientId, client.clientSecret)
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(200);
      expect(basic.body.access_token).not.toBe(form.body.access_token);
    });

    it('answers 400 invalid_client for a wrong secret, an unknown client or no secret', async () => {
      const client = await createClient(app, tenant);
      const expected = {
        error: 'invalid_client',
        error_description: 'The client credentials are invalid',
      };
      for (const query of [
        { client_id: client.clientId, client_secret: 'wrong' },
        { client_id: 'nobody_abc', client_secret: client.clientSecret },
      ]) {
        const res = await request(app.getHttpServer())
          .get('/oauth/v2/token')
          .query({ grant_type: 'client_credentials', ...query })
          .expect(400);
        expect(res.body).toEqual(expected);
      }
      const noSecret = await request(app.getHttpServer())
        .get('/oauth/v2/token')
        .query({ grant_type: 'client_credentials', client_id: client.clientId })
        .expect(400);
      expect(noSecret.body).toEqual(expected);

      const basic = await request(app.getHttpServer())
        .post('/oauth/v2/token')
        .auth(client.clientId, 'wrong')
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(401);
      expect(basic.body).toEqual(expected);
      expect(basic.headers['www-authenticate']).toMatch(/^Basic/);
    });

    it('rejects unsupported grant types and foreign scopes', async () => {
      const client = await createClient(app, tenant);
      const base = { client_id: client.clientId, client_secret: client.clientSecret };
      const password = await request(app.getHttpServer())
        .get('/oauth/v2/token')
        .query({ grant_type: 'password', ...base })
        .expect(400);
      // No client may use the password grant (third parties never see passwords).
      expect(password.body.error).toBe('unauthorized_client');
      const scope = await request(app.getHttpServer())
        .get('/oauth/v2/token')
        .query({ grant_type: 'client_credentials', scope: 'admin', ...base })
        .expect(400);
      expect(scope.body.error).toBe('invalid_scope');
      const none = await request(app.getHttpServer()).get('/oauth/v2/token').expect(400);
      expect(none.body.error).toBe('invalid_client');
      const noGrant = await request(app.getHttpServer())
        .get('/oauth/v2/token')
        .query(base)
        .expect(400);
      expect(noGrant.body.error).toBe('invalid_request');
    });
  });

  describe('bearer tokens', () => {
    it('an expired token (by the clock) is 401 with WWW-Authenticate and a hydra error', async () => {
      const client = await createClient(app, tenant);
      const res = await request(app.getHttpServer())
        .get('/oauth/v2/token')
        .query({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
        })
        .expect(200);
      const token = res.body.access_token;
      let restore = travel(app, 3599);
      try {
        await api(app, { token }).get('/workspaces').expect(200);
      } finally {
        restore();
      }
      restore = travel(app, 3601);
      try {
        const expired = await api(app, { token }).get('/workspaces').expect(401);
        expect(expired.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(expired.body).toMatchObject({
          '@type': 'hydra:Error',
          'hydra:description': 'Full authentication is required to access this resource.',
        });
      } finally {
        restore();
      }
    });

    it('a revoked, unknown or malformed token is 401', async () => {
      const client = await createClient(app, tenant);
      const res = await request(app.getHttpServer())
        .get('/oauth/v2/token')
        .query({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
        })
        .expect(200);
      await app
        .get(DataSource)
        .query(`UPDATE access_token SET revoked_at = now() WHERE token_hash = $1`, [
          hashToken(res.body.access_token),
        ]);
      await api(app, { token: res.body.access_token }).get('/workspaces').expect(401);
      await api(app, { token: 'nope' }).get('/workspaces').expect(401);
      await request(app.getHttpServer())
        .get('/workspaces')
        .set('Authorization', 'Basic abc')
        .expect(401);
    });
  });
});

describe('token endpoint rate limits', () => {
  let app: NestExpressApplication;
  const saved = { ...process.env };

  beforeAll(async () => {
    process.env.TOKEN_RATE_LIMIT_PER_CLIENT = '3';
    process.env.TOKEN_RATE_LIMIT_PER_ADDRESS = '8';
    process.env.TOKEN_RATE_WINDOW_SECONDS = '60';
    app = await createTestApp();
    // Counters are shared through the database (RATE_LIMIT_STORE=postgres): the token requests
    // of the tests above count against this address too. Start from fresh budgets, and leave
    // none blocked for the spec files that follow on this database.
    await app.get(DataSource).query('DELETE FROM rate_limit_counter');
  });
  afterAll(async () => {
    process.env = saved;
    await app?.get(DataSource).query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
  });

  it('limits per client, then per address, with 429 and Retry-After', async () => {
    const tenant = await createTenant(app);
    const a = await createClient(app, tenant);
    const b = await createClient(app, tenant);
    const ask = (c: { clientId: string; clientSecret: string }) =>
      request(app.getHttpServer()).get('/oauth/v2/token').query({
        grant_type: 'client_credentials',
        client_id: c.clientId,
        client_secret: c.clientSecret,
      });
    for (let i = 0; i < 3; i++) await ask(a).expect(200);
    const limited = await ask(a).expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.body['hydra:description']).toMatch(/Too many/);

    // Client b has its own budget; the address budget (8) runs out after it.
    for (let i = 0; i < 3; i++) await ask(b).expect(200);
    await ask(b).expect(429);
    const c = await createClient(app, tenant);
    const byAddress = await ask(c).expect(429);
    expect(byAddress.headers['retry-after']).toBeDefined();

    // Only token routes are limited.
    await api(app, { token: tenant.token }).get('/workspaces').expect(200);
  });
});
