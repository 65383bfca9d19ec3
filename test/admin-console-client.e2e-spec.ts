import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  createClient,
  hiddenFields,
  pkcePair,
  setPassword,
  travel,
  userTokenAnswer,
} from './factories/identity.factory';
import { createTenant, type Tenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

const HOST = 'console.example.test';
const REDIRECT = `http://${HOST}/admin/`;
const PASSWORD = 'console client 123';

/**
 * The merchant console's OAuth client (migration AdminConsoleClient): first-party and public,
 * PKCE (S256) only, redirect URI `/admin/` on the origin the request came to, refresh tokens
 * with its `client_id` only (rotated, a reused one revokes the family), invisible among the
 * account's clients.
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

  /** The console's refresh: its client_id, no secret. */
  const refresh = (refreshToken: string) =>
    server().post('/oauth/v2/token').type('form').send({
      grant_type: 'refresh_token',
      client_id: 'admin-console',
      refresh_token: refreshToken,
    });

  /** A signed-in console: the code exchange's answer. */
  async function signIn(): Promise<Record<string, any>> {
    const { verifier, challenge } = pkcePair();
    const code = (await consent(challenge)).searchParams.get('code')!;
    return (await exchange({ code, code_verifier: verifier }).expect(200)).body;
  }

  it('signs in with PKCE and gets an access token and a refresh token', async () => {
    const { verifier, challenge } = pkcePair();
    const location = await consent(challenge);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st');
    const code = location.searchParams.get('code')!;
    const token = await exchange({ code, code_verifier: verifier }).expect(200);
    expect(token.headers['cache-control']).toBe('no-store');
    expect(token.body).toEqual(userTokenAnswer(user));
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

  it('refreshes with its client_id only, rotating the pair', async () => {
    const first = await signIn();
    const second = await refresh(first.refresh_token).expect(200);
    expect(second.headers['cache-control']).toBe('no-store');
    expect(second.body).toEqual(userTokenAnswer(user));
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    // Still the user's own session, not a delegated token.
    await api(app, { token: second.body.access_token }).get('/oauth_clients').expect(200);
    const third = await refresh(second.body.refresh_token).expect(200);
    await api(app, { token: third.body.access_token })
      .get(`/workspaces/${user.workspaceId}`)
      .expect(200);
  });

  it('refuses a spent refresh token and revokes its whole family', async () => {
    const first = await signIn();
    const second = (await refresh(first.refresh_token).expect(200)).body;
    // Moments after a rotation the old token is forgiven once (a lost answer); a minute is past.
    const restore = travel(app, 60);
    const reuse = await refresh(first.refresh_token).expect(400);
    restore();
    expect(reuse.headers['cache-control']).toBe('no-store');
    expect(reuse.body).toEqual({
      error: 'invalid_grant',
      error_description: expect.any(String),
    });
    await api(app, { token: second.access_token }).get('/workspaces').expect(401);
    const revoked = await refresh(second.refresh_token).expect(400);
    expect(revoked.body.error).toBe('invalid_grant');
    // Another session of the same user is untouched.
    const other = await signIn();
    await refresh(other.refresh_token).expect(200);
  });

  it('a refresh repeated after its answer was lost keeps the session', async () => {
    const first = await signIn();
    const lost = (await refresh(first.refresh_token).expect(200)).body;
    const again = await refresh(first.refresh_token).expect(200);
    expect(again.body).toEqual(userTokenAnswer(user));
    await api(app, { token: again.body.access_token }).get('/workspaces').expect(200);
    const next = await refresh(again.body.refresh_token).expect(200);
    await api(app, { token: next.body.access_token }).get('/workspaces').expect(200);
    // The lost token is spent: it turning up now is a copy.
    await refresh(lost.refresh_token).expect(400);
    await api(app, { token: next.body.access_token }).get('/workspaces').expect(401);
  });

  it('refuses a refresh token of another client, and a confidential client without its secret', async () => {
    const owner = await createTenant(app);
    const partner = await createClient(app, owner, { redirectUris: ['https://partner.test/cb'] });
    const signedIn = await signIn();
    const stolen = await server()
      .post('/oauth/v2/token')
      .type('form')
      .send({
        grant_type: 'refresh_token',
        refresh_token: signedIn.refresh_token,
        client_id: partner.clientId,
        client_secret: partner.clientSecret,
      })
      .expect(400);
    expect(stolen.body.error).toBe('invalid_grant');

    // A partner's own refresh token: only with its secret.
    const page = await server()
      .get('/oauth/v2/auth')
      .query({
        client_id: partner.clientId,
        redirect_uri: 'https://partner.test/cb',
        response_type: 'code',
        state: 's',
      })
      .expect(200);
    const consented = await server()
      .post('/oauth/v2/auth')
      .set('Cookie', page.headers['set-cookie'])
      .type('form')
      .send({ ...hiddenFields(page.text), email: user.email, password: PASSWORD, allowed: 'true' })
      .expect(302);
    const code = new URL(consented.headers.location).searchParams.get('code')!;
    const tokens = (
      await server()
        .post('/oauth/v2/token')
        .type('form')
        .send({
          grant_type: 'authorization_code',
          code,
          redirect_uri: 'https://partner.test/cb',
          client_id: partner.clientId,
          client_secret: partner.clientSecret,
        })
        .expect(200)
    ).body;
    const partnerRefresh = (secret: Record<string, string> = {}) =>
      server()
        .post('/oauth/v2/token')
        .type('form')
        .send({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: partner.clientId,
          ...secret,
        });
    const withoutSecret = await partnerRefresh().expect(400);
    expect(withoutSecret.body).toEqual({
      error: 'invalid_client',
      error_description: 'The client credentials are invalid',
    });
    // The console's client_id does not lend its leniency to a partner's refresh token.
    const borrowed = await refresh(tokens.refresh_token).expect(400);
    expect(borrowed.body.error).toBe('invalid_grant');
    // Neither attempt spent it: the partner still refreshes, with its secret.
    await partnerRefresh({ client_secret: partner.clientSecret }).expect(200);
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
