import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { OauthClientsService } from '../../src/oauth-clients/oauth-clients.service';
import { PasswordLogin } from '../../src/auth/password-login';
import { closeTestApp, createTestApp } from '../support/app';
import { issueToken } from '../factories/tenant.factory';
import { setPassword } from '../factories/identity.factory';
import { api } from '../support/http';
import { extract, startTestSmtp, type TestSmtp } from '../support/smtp';

const APP_KEY = 'storefront-app-key';

/**
 * Issue 11 item 10: a storefront registration created an account (with a password and a token)
 * for an address nobody proved. Until it is proven, the account cannot register OAuth clients
 * nor get client-credentials tokens; once the real owner proves it, every token, client and
 * password set before is gone. (Since issue 22 such a registration gets neither a token nor a
 * password before its mailed code is used; accounts registered before keep both, as here.)
 */
describe('security: unverified accounts', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let storefront: Server;
  let smtp: TestSmtp;
  const saved = { ...process.env };
  const installations: Record<string, Record<string, unknown>> = {};

  beforeAll(async () => {
    storefront = createServer((req, res) => {
      const m = /^\/api\/installations\/([^/]+)$/.exec(req.url!);
      const found =
        req.headers.authorization === `Bearer ${APP_KEY}` && m
          ? installations[decodeURIComponent(m[1])]
          : undefined;
      res.writeHead(found ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(found ?? { message: 'not found' }));
    });
    await new Promise<void>((resolve) => storefront.listen(0, '127.0.0.1', resolve));
    smtp = await startTestSmtp();
    Object.assign(process.env, {
      SMTP_URL: smtp.url,
      STOREFRONT_APP_URL: `http://127.0.0.1:${(storefront.address() as AddressInfo).port}`,
      STOREFRONT_APP_API_KEY: APP_KEY,
    });
    app = await createTestApp();
    db = app.get(DataSource);
  });
  afterAll(async () => {
    process.env = saved;
    await db?.query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
    await smtp.close();
    await new Promise((resolve) => storefront.close(resolve));
  });

  /**
   * A storefront registration of `email` by someone who does not own it, as it was before
   * issue 22: signed in at once, with the squatter's password.
   */
  async function squat(email: string) {
    const tokenId = `inst_${randomBytes(6).toString('hex')}`;
    installations[tokenId] = {
      id: tokenId,
      shop: `${tokenId}.storefront.test`,
      shopName: 'Squat',
      email: 'someone-else@example.test',
      currency: 'EUR',
    };
    const tag = randomBytes(4).toString('hex');
    const res = await api(app)
      .post('/integration/storefront/register', {
        tokenId,
        firstName: 'Mallory',
        lastName: 'M',
        email,
        plainPassword: 'squatter password',
        team: `Squat ${tag}`,
        workspace: 'Squat',
        subdomain: `squat-${tag}`,
      })
      .expect(201);
    expect(res.body).toMatchObject({ accessToken: null, user: { emailVerified: false } });
    const [user] = await db.query(`SELECT id FROM "user" WHERE email = $1`, [email]);
    await setPassword(app, user.id, 'squatter password');
    return { accessToken: await issueToken(app, user.id), user: { id: user.id as string } };
  }

  it('cannot register OAuth clients nor get client-credentials tokens', async () => {
    const email = `victim-${randomBytes(4).toString('hex')}@example.test`;
    const squatter = await squat(email);
    await api(app, { token: squatter.accessToken })
      .post('/oauth_clients', { name: 'Backdoor', redirectUris: [] })
      .expect(403);
    // A client made some other way (before this rule) gives no token either.
    const { client, secret } = await app
      .get(OauthClientsService)
      .createFor(db.manager, { userId: squatter.user.id }, 'Old client');
    const res = await api(app)
      .get(
        `/oauth/v2/token?grant_type=client_credentials&client_id=${encodeURIComponent(client.publicId)}&client_secret=${secret}`,
      )
      .set('Accept', 'application/json');
    expect(res.status).toBe(400);
    expect(res.body.access_token).toBeUndefined();
  });

  it('when the owner proves the address, what was set up before is revoked', async () => {
    const email = `owner-${randomBytes(4).toString('hex')}@example.test`;
    const squatter = await squat(email);
    await app
      .get(OauthClientsService)
      .createFor(db.manager, { userId: squatter.user.id }, 'Squatter client');
    await api(app, { token: squatter.accessToken }).get('/workspaces').expect(200);

    // The registration's own mail (its code carries the squatter's password) came first.
    await smtp.waitFor(email, /finish your registration/);
    await api(app).post('/security/signup', { email, password: 'the owner password' }).expect(200);
    const code = extract(await smtp.waitFor(email, /Verify/), /code: ([\w-]+)/);
    await api(app).post('/security/verify-email', { code }).expect(201);

    await api(app, { token: squatter.accessToken }).get('/workspaces').expect(401);
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM oauth_client WHERE user_id = $1`,
      [squatter.user.id],
    );
    expect(n).toBe(0);
    const login = app.get(PasswordLogin);
    expect(await login.authenticate(email, 'squatter password')).toBeNull();
    expect(await login.authenticate(email, 'the owner password')).not.toBeNull();
  });
});
