import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { hiddenFields, pkcePair, setPassword } from './factories/identity.factory';
import { createTenant, type Tenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

const HOST = 'console.example.test';
const REDIRECT = `http://${HOST}/admin/`;
const PASSWORD = 'console client 123';

/**
 * The merchant console's OAuth client (migration AdminConsoleClient): first-party and public,
 * PKCE (S256) only, redirect URI `/admin/` on the origin the request came to, no refresh
 * token, invisible among the account's clients.
 */
describe('the console client admin-console', () => {
  let app: NestExpressApplication;
  let user: Tenant;
  const server = () => request(app.getHttpServer());

  beforeAll(async () => {
    app = await createTestApp();
    user = await createTenant(app);
    await setPassword(app, user.userId, PASSWORD);
  });
  beforeEach(() => app.get(DataSource).query('DELETE FROM rate_limit_counter'));
  afterAll(async () => {
    await app?.get(DataSource).query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
  });

  const authorizeQuery = (challenge: string, extra: Record<string, string> = {}) => ({
    client_id: 'admin-console',
    redirect_uri: REDIRECT,
    response_type: 'code',
    state: 'st',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });

  /** The page, then the consent: the redirect location. */
  async function consent(challenge: string): Promise<URL> {
    const page = await server()
      .get('/oauth/v2/auth')
      .set('Host', HOST)
      .query(authorizeQuery(challenge))
      .expect(200);
    const res = await server()
      .post('/oauth/v2/auth')
      .set('Host', HOST)
      .set('Cookie', page.headers['set-cookie'])
      .type('form')
      .send({ ...hiddenFields(page.text), email: user.email, password: PASSWORD, allowed: 'true' })
      .expect(302);
    return new URL(res.headers.location);
  }

  const exchange = (body: Record<string, string>) =>
    server()
      .post('/oauth/v2/token')
      .type('form')
      .send({
        grant_type: 'authorization_code',
        client_id: 'admin-console',
        redirect_uri: REDIRECT,
        ...body,
      });

  it('signs in with PKCE and gets an access token without a refresh token', async () => {
    const { verifier, challenge } = pkcePair();
    const location = await consent(challenge);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st');
    const code = location.searchParams.get('code')!;
    const token = await exchange({ code, code_verifier: verifier }).expect(200);
    expect(token.body).toEqual(
      expect.objectContaining({
        token_type: 'bearer',
        user_id: user.userId,
        user_email: user.email,
      }),
    );
    expect(token.body.refresh_token).toBeUndefined();
    await api(app, { token: token.body.access_token })
      .get(`/workspaces/${user.workspaceId}`)
      .expect(200);
    // First-party: the user's own session, not a third-party application's (delegated) token.
    await api(app, { token: token.body.access_token }).get('/oauth_clients').expect(200);
  });

  it('refuses an exchange without the verifier or with another one', async () => {
    const { challenge } = pkcePair();
    const code = (await consent(challenge)).searchParams.get('code')!;
    const missing = await exchange({ code }).expect(400);
    expect(missing.body.error).toBe('invalid_client');
    const wrong = await exchange({ code, code_verifier: pkcePair().verifier }).expect(400);
    expect(wrong.body.error).toBe('invalid_grant');
  });

  it('revokes the token when its code is used again', async () => {
    const { verifier, challenge } = pkcePair();
    const code = (await consent(challenge)).searchParams.get('code')!;
    const first = await exchange({ code, code_verifier: verifier }).expect(200);
    await api(app, { token: first.body.access_token }).get('/workspaces').expect(200);
    await exchange({ code, code_verifier: verifier }).expect(400);
    await api(app, { token: first.body.access_token }).get('/workspaces').expect(401);
  });

  it('needs S256 PKCE on the authorization page', async () => {
    const { challenge } = pkcePair();
    for (const query of [
      authorizeQuery(challenge, { code_challenge: '' }),
      authorizeQuery(challenge, { code_challenge_method: 'plain' }),
    ]) {
      const page = await server().get('/oauth/v2/auth').set('Host', HOST).query(query).expect(400);
      expect(page.text).toContain('PKCE');
    }
  });

  it('redirects only to /admin/ of the origin the request came to', async () => {
    const { challenge } = pkcePair();
    for (const redirect of [
      'https://evil.example/admin/',
      `http://${HOST}/admin/callback`,
      `http://${HOST}/admin`,
      `http://${HOST}/admin/?next=x`,
    ]) {
      const page = await server()
        .get('/oauth/v2/auth')
        .set('Host', HOST)
        .query(authorizeQuery(challenge, { redirect_uri: redirect }))
        .expect(400);
      expect(page.headers.location).toBeUndefined();
      expect(page.text).toContain('redirect_uri is not registered');
    }
    // Without a redirect_uri: this origin's /admin/.
    const page = await server()
      .get('/oauth/v2/auth')
      .set('Host', HOST)
      .query(authorizeQuery(challenge, { redirect_uri: '' }))
      .expect(200);
    expect(hiddenFields(page.text).redirect_uri).toBe(REDIRECT);
  });

  it('has no secret and no client_credentials grant', async () => {
    const res = await server()
      .post('/oauth/v2/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: 'admin-console', client_secret: '-' })
      .expect(400);
    expect(res.body.error).toBe('invalid_client');
  });

  it('is not one of the account’s clients', async () => {
    const list = await api(app, { token: user.token }).get('/oauth_clients').expect(200);
    expect(list.body['hydra:member']).toEqual([]);
  });
});
