import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { PasswordLogin } from '../../src/auth/password-login';
import { createClient, hiddenFields, setPassword } from '../factories/identity.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

const REDIRECT = 'https://partner.example/cb';
const PASSWORD = 'user password 123';

/**
 * Issue 11 item 12: a token granted to a third-party application (authorization code) acts on
 * the user's data but cannot manage the account (password, OAuth clients, credentials), and
 * changing a password that is set needs the current one.
 */
describe('security: tokens granted to third-party applications', () => {
  let app: NestExpressApplication;
  let user: Tenant;
  let delegated: string;

  beforeAll(async () => {
    app = await createTestApp();
    const partner = await createTenant(app);
    user = await createTenant(app);
    await setPassword(app, user.userId, PASSWORD);
    const client = await createClient(app, partner, { redirectUris: [REDIRECT] });
    const server = () => request(app.getHttpServer());
    const page = await server()
      .get('/oauth/v2/auth')
      .query({ client_id: client.clientId, redirect_uri: REDIRECT, response_type: 'code' })
      .expect(200);
    const consent = await server()
      .post('/oauth/v2/auth')
      .set('Cookie', page.headers['set-cookie'])
      .type('form')
      .send({ ...hiddenFields(page.text), email: user.email, password: PASSWORD, allowed: 'true' })
      .expect(302);
    const code = new URL(consent.headers.location).searchParams.get('code')!;
    const exchange = await server()
      .post('/oauth/v2/auth')
      .send({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      })
      .expect(200);
    delegated = exchange.body.access_token;
  });
  afterAll(async () => {
    await app?.get(DataSource).query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
  });

  it('reads and writes the user’s data', async () => {
    await api(app, { token: delegated }).get('/workspaces').expect(200);
  });

  it('cannot change the password, create OAuth clients or manage credentials', async () => {
    const http = api(app, { token: delegated });
    await http
      .put(`/users/${user.userId}`, { plainPassword: 'taken over 123', currentPassword: PASSWORD })
      .expect(403);
    await http.post('/oauth_clients', { name: 'Backdoor', redirectUris: [] }).expect(403);
    await http
      .post('/credentials', {
        type: 'webhook',
        team: `/teams/${user.teamId}`,
        parameters: { url: 'https://partner.example/hook' },
        secrets: { signingSecret: 'partner-signing-key-00' },
      })
      .expect(403);
    expect(await app.get(PasswordLogin).authenticate(user.email, PASSWORD)).not.toBeNull();
    const [{ n }] = await app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM oauth_client WHERE user_id = $1`, [user.userId]);
    expect(n).toBe(0);
  });

  it('the account holder’s own token changes the password only with the current one', async () => {
    const http = api(app, { token: user.token });
    const missing = await http
      .put(`/users/${user.userId}`, { plainPassword: 'a new password 1' })
      .expect(422);
    expect(missing.body.violations[0].propertyPath).toBe('currentPassword');
    await http
      .put(`/users/${user.userId}`, { plainPassword: 'a new password 1', currentPassword: 42 })
      .expect(400);
    await http
      .put(`/users/${user.userId}`, {
        plainPassword: 'a new password 1',
        currentPassword: 'wrong password',
      })
      .expect(422);
    expect(await app.get(PasswordLogin).authenticate(user.email, PASSWORD)).not.toBeNull();
    await http
      .put(`/users/${user.userId}`, {
        plainPassword: 'a new password 1',
        currentPassword: PASSWORD,
      })
      .expect(200);
    expect(
      await app.get(PasswordLogin).authenticate(user.email, 'a new password 1'),
    ).not.toBeNull();
  });
});
