import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { createClient, hiddenFields, setPassword } from '../factories/identity.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

/**
 * Issue 11 item 7: /oauth/v2/auth is no open redirector (RFC 9700 4.11): errors before the
 * user has signed in are an error page, redirect URIs are https except on loopback (RFC 8252),
 * and the consent form carries an anti-forgery token.
 */
describe('security: the authorization endpoint', () => {
  let app: NestExpressApplication;
  let owner: Tenant;
  const PASSWORD = 'user password 123';

  beforeAll(async () => {
    app = await createTestApp();
    owner = await createTenant(app);
    await setPassword(app, owner.userId, PASSWORD);
  });
  afterAll(async () => {
    await app?.get(DataSource).query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
  });

  const http = () => api(app, { token: owner.token });

  it('refuses redirect URIs a third party could read: http off loopback, bare custom schemes', async () => {
    for (const uri of ['http://evil.example/cb', 'http://10.1.2.3/cb', 'evil:/cb']) {
      const res = await http()
        .post('/oauth_clients', { name: 'App', redirectUris: [uri] })
        .expect(422);
      expect(res.body.violations[0].propertyPath).toBe('redirectUris');
    }
    await createClient(app, owner, {
      redirectUris: ['https://app.example/cb', 'http://127.0.0.1:8123/cb', 'com.example.app:/cb'],
    });
  });

  it('an invalid request is an error page, never an automatic redirect', async () => {
    const client = await createClient(app, owner, { redirectUris: ['https://evil.example/cb'] });
    const res = await api(app, { accept: 'text/html' })
      .get(
        `/oauth/v2/auth?client_id=${encodeURIComponent(client.clientId)}&response_type=x&state=s`,
      )
      .expect(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  it('the consent form only works with its anti-forgery token and cookie', async () => {
    const client = await createClient(app, owner, { redirectUris: ['https://app.example/cb'] });
    const page = await api(app, { accept: 'text/html' })
      .get(
        `/oauth/v2/auth?client_id=${encodeURIComponent(client.clientId)}&response_type=code&state=s`,
      )
      .expect(200);
    const fields = hiddenFields(page.text);
    expect(fields.csrf_token).toEqual(expect.any(String));
    const cookie = page.headers['set-cookie'] as unknown as string[];
    expect(cookie.join(';')).toMatch(/HttpOnly/);
    expect(cookie.join(';')).toMatch(/SameSite=Strict/);
    const post = (body: Record<string, string>, withCookie: boolean) => {
      const req = api(app, { accept: 'text/html' })
        .post('/oauth/v2/auth')
        .set('Content-Type', 'application/x-www-form-urlencoded');
      if (withCookie) req.set('Cookie', cookie);
      return req.send(new URLSearchParams(body).toString());
    };
    const credentials = { email: owner.email, password: PASSWORD, allowed: 'true' };
    // A page elsewhere posting the form: no cookie, or no token, or another token.
    const forged = [
      await post({ ...fields, ...credentials }, false),
      await post({ ...fields, csrf_token: '', ...credentials }, true),
      await post({ ...fields, csrf_token: 'x'.repeat(32), ...credentials }, true),
      await post({ ...fields, allowed: 'false' }, false),
    ];
    for (const res of forged) {
      expect(res.status).toBe(403);
      expect(res.headers.location).toBeUndefined();
    }
    const [{ n }] = await app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM oauth_authorization_code WHERE user_id = $1`, [
        owner.userId,
      ]);
    expect(n).toBe(0);
    const ok = await post({ ...fields, ...credentials }, true).expect(302);
    expect(new URL(ok.headers.location).searchParams.get('code')).toEqual(expect.any(String));
  });
});
