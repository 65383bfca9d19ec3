import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createTenant } from './factories/tenant.factory';

/**
 * Integrations end to end, the storefront app being a local server that speaks its API
 * (installations by token id, bearer key).
 */

const SECRET = 'integration-secret-for-tests';
const APP_KEY = 'storefront-app-key';

describe('integrations', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let storefront: Server;
  const installations: Record<string, Record<string, unknown>> = {};
  let storefrontDown = false;

  beforeAll(async () => {
    storefront = createServer((req, res) => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (storefrontDown) return send(500, { message: 'down' });
      if (req.headers.authorization !== `Bearer ${APP_KEY}`) return send(401, {});
      const m = /^\/api\/installations\/([^/]+)$/.exec(req.url!);
      const found = m ? installations[decodeURIComponent(m[1])] : undefined;
      send(found ? 200 : 404, found ?? { message: 'not found' });
    });
    await new Promise<void>((resolve) => storefront.listen(0, '127.0.0.1', resolve));
    Object.assign(process.env, {
      INTEGRATION_SECRET: SECRET,
      STOREFRONT_APP_URL: `http://127.0.0.1:${(storefront.address() as AddressInfo).port}`,
      STOREFRONT_APP_API_KEY: APP_KEY,
      BILLING_ENFORCE_ENTITLEMENTS: 'true',
    });
    app = await createTestApp();
    db = app.get(DataSource);
  });

  afterAll(async () => {
    // Registrations spend the account budgets (per client address and e-mail).
    await db?.query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
    await new Promise((resolve) => storefront.close(resolve));
  });

  function installation(email = 'owner@acme-shop.test'): string {
    const tokenId = `inst_${randomBytes(6).toString('hex')}`;
    installations[tokenId] = {
      id: tokenId,
      shop: `${tokenId}.storefront.test`,
      shopName: 'Acme Shop',
      email,
      currency: 'EUR',
    };
    return tokenId;
  }

  function registration(tokenId: string, overrides: Record<string, unknown> = {}) {
    const tag = randomBytes(4).toString('hex');
    return {
      tokenId,
      firstName: 'Ada',
      lastName: 'Merchant',
      email: `ada-${tag}@example.test`,
      plainPassword: 'correct horse battery',
      team: `Acme ${tag}`,
      workspace: 'Acme Shop',
      subdomain: `acme-${tag}`,
      ...overrides,
    };
  }

  describe('POST /integration/storefront/register', () => {
    it('creates the user, team, workspace and tracking page, links the shop and signs in', async () => {
      const tokenId = installation();
      const body = registration(tokenId);
      // The shop's own address, as the storefront platform reports it: signed in at once.
      installations[tokenId].email = body.email;
      const res = await api(app).post('/integration/storefront/register', body).expect(201);
      expect(res.body['@type']).toBe('StorefrontRegisterResponse');
      expect(res.body.accessToken).toEqual(expect.any(String));
      expect(res.body.refreshToken).toBeNull();
      expect(res.body.workflowId).toBeNull();
      expect(res.body.user).toMatchObject({
        '@type': 'User',
        email: body.email,
        firstName: 'Ada',
        lastName: 'Merchant',
        emailVerified: true,
        passwordSet: true,
        trialRedeemed: false,
      });
      expect(res.body.team).toMatchObject({
        '@type': 'Team',
        name: body.team,
        workspacesCount: 1,
        usersCount: 1,
        // No billing provider is configured here: a self-hosted team, unlimited (issue 12.10).
        subscription: expect.objectContaining({ planId: 'self_hosted', status: 'active' }),
        billingProvider: 'self_hosted',
      });
      expect(res.body.team.entitlements.workspaces).toMatchObject({ used: 1 });
      expect(res.body.workspace).toMatchObject({ '@type': 'Workspace', title: 'Acme Shop' });
      expect(res.body.workspace.team).toBe(res.body.team['@id']);

      // The token works, and shows the new user's own world.
      const token = res.body.accessToken as string;
      const workspaces = await api(app, { token }).get('/workspaces').expect(200);
      expect(workspaces.body['hydra:member'].map((w: { id: string }) => w.id)).toEqual([
        res.body.workspace.id,
      ]);
      const page = await api(app, { token })
        .get(res.body.workspace.defaultTrackingPage)
        .expect(200);
      expect(page.body.subdomain).toBe(body.subdomain);
      const [link] = await db.query(
        `SELECT team_id, workspace_id, account, details FROM integration_link WHERE external_id = $1`,
        [tokenId],
      );
      expect(link).toEqual({
        team_id: res.body.team.id,
        workspace_id: res.body.workspace.id,
        account: `${tokenId}.storefront.test`,
        details: { shopName: 'Acme Shop', currency: 'EUR' },
      });
    });

    it('takes the shop owner’s own address as verified, whatever its case', async () => {
      const tokenId = installation('shop-owner@example.test');
      const email = `Shop-Owner-${randomBytes(3).toString('hex')}@example.test`;
      installations[tokenId].email = email.toLowerCase();
      const res = await api(app)
        .json()
        .post('/integration/storefront/register', registration(tokenId, { email }))
        .expect(201);
      expect(res.body.user.emailVerified).toBe(true);
      expect(res.body.user['@id']).toBeUndefined();
    });

    it('creates another address’s account unverified and waits for its mail', async () => {
      const tokenId = installation();
      const body = registration(tokenId);
      const res = await api(app).json().post('/integration/storefront/register', body).expect(201);
      expect(res.body).toEqual({
        accessToken: null,
        refreshToken: null,
        user: { '@type': 'User', email: body.email, emailVerified: false },
        team: null,
        workspace: null,
        workflowId: null,
        message: 'Check your inbox: we sent a message to this address to finish the registration.',
      });
      // Made (the subdomain is the shop's), but nobody can sign in before the code is used.
      const [user] = await db.query(
        `SELECT email_verified, password_hash FROM "user" WHERE email = $1`,
        [body.email],
      );
      expect(user).toEqual({ email_verified: false, password_hash: null });
      const [link] = await db.query(
        `SELECT 1 FROM integration_link l JOIN workspace w ON w.id = l.workspace_id
           JOIN tracking_page p ON p.id = w.default_tracking_page_id
          WHERE l.external_id = $1 AND p.subdomain = $2`,
        [tokenId, body.subdomain],
      );
      expect(link).toBeDefined();
    });

    it('validates every field and names each problem', async () => {
      const res = await api(app)
        .post('/integration/storefront/register', {
          tokenId: '',
          email: 'not-an-email',
          plainPassword: 'short',
          team: 'A$',
          workspace: 'Shop',
          firstName: 'A',
          lastName: 'B',
          subdomain: 'ok-sub',
        })
        .expect(422);
      expect(
        res.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort(),
      ).toEqual(['email', 'plainPassword', 'team', 'team', 'tokenId']);
      await api(app)
        .post('/integration/storefront/register', { ...registration('x'), email: 42 })
        .expect(400);
    });

    it('refuses unknown and used installations and taken subdomains', async () => {
      const unknown = await api(app)
        .post('/integration/storefront/register', registration('inst_unknown'))
        .expect(422);
      expect(unknown.body.violations[0]).toMatchObject({
        propertyPath: 'tokenId',
        message: 'This storefront installation is unknown.',
      });

      const tokenId = installation();
      const first = registration(tokenId);
      await api(app).post('/integration/storefront/register', first).expect(201);
      const again = await api(app)
        .post('/integration/storefront/register', registration(tokenId))
        .expect(422);
      expect(again.body.violations[0].propertyPath).toBe('tokenId');

      // A known address is no refusal: the answer is a new address's (test/security/).
      const sameEmail = await api(app)
        .post(
          '/integration/storefront/register',
          registration(installation(), { email: first.email }),
        )
        .expect(201);
      expect(sameEmail.body.accessToken).toBeNull();

      const other = installation();
      const taken = await api(app)
        .post(
          '/integration/storefront/register',
          registration(other, { subdomain: first.subdomain }),
        )
        .expect(422);
      expect(taken.body.violations).toEqual([
        expect.objectContaining({
          propertyPath: 'subdomain',
          message: 'This subdomain is already taken.',
        }),
      ]);
      // Nothing of the refused sign-up stayed.
      const users = await db.query(`SELECT 1 FROM integration_link WHERE external_id = $1`, [
        other,
      ]);
      expect(users).toHaveLength(0);
    });

    it('answers 502 while the storefront app is down', async () => {
      storefrontDown = true;
      try {
        await api(app)
          .post('/integration/storefront/register', registration(installation()))
          .expect(502);
      } finally {
        storefrontDown = false;
      }
    });
  });

  describe('/integration-secure/*', () => {
    const secure = (path: string, body: unknown, secret: string | null = SECRET) => {
      const test = request(app.getHttpServer())
        .post(path)
        .set('Content-Type', 'application/json')
        .set('Accept', 'application/json');
      if (secret !== null) test.set('X-Integration-Secret', secret);
      return test.send(body as object);
    };

    it('links a storefront installation to a workspace, moving it from a previous one', async () => {
      const a = await createTenant(app);
      const b = await createTenant(app);
      const tokenId = installation();
      const res = await secure('/integration-secure/storefront/workspace', {
        tokenId,
        workspaceId: a.workspaceId,
      }).expect(201);
      expect(res.body).toEqual({ teamId: a.teamId, workspaceId: a.workspaceId, workflowId: null });
      await secure('/integration-secure/storefront/workspace', {
        tokenId,
        workspaceId: `/workspaces/${b.workspaceId}`,
      }).expect(201);
      const links = await db.query(
        `SELECT workspace_id, account FROM integration_link WHERE external_id = $1`,
        [tokenId],
      );
      expect(links).toEqual([
        { workspace_id: b.workspaceId, account: `${tokenId}.storefront.test` },
      ]);
      const unknown = await secure('/integration-secure/storefront/workspace', {
        tokenId: 'inst_nope',
        workspaceId: a.workspaceId,
      }).expect(422);
      expect(unknown.body.violations[0].propertyPath).toBe('tokenId');
    });

    it('links a marketing provider account', async () => {
      const t = await createTenant(app);
      const res = await secure('/integration-secure/marketing_provider/workspace', {
        tokenId: 'acct_123',
        workspaceId: t.workspaceId,
        accountName: 'Acme newsletter',
      }).expect(201);
      expect(res.body).toEqual({ teamId: t.teamId, workspaceId: t.workspaceId, workflowId: null });
      const [link] = await db.query(
        `SELECT kind, account FROM integration_link WHERE workspace_id = $1`,
        [t.workspaceId],
      );
      expect(link).toEqual({ kind: 'marketing_provider', account: 'Acme newsletter' });
    });

    it('refuses calls without the shared secret, and bad bodies', async () => {
      const t = await createTenant(app);
      const body = { tokenId: 'acct_1', workspaceId: t.workspaceId };
      const path = '/integration-secure/marketing_provider/workspace';
      const none = await secure(path, body, null).expect(403);
      expect(none.body.detail).toBe('Invalid or missing integration secret.');
      await secure(path, body, 'wrong').expect(403);
      // A user token is no substitute for the secret.
      await request(app.getHttpServer())
        .post(path)
        .set('Authorization', `Bearer ${t.token}`)
        .send(body)
        .expect(403);
      const missing = await secure(path, { tokenId: 'x', workspaceId: 'not-an-id' }).expect(422);
      expect(missing.body.violations[0]).toMatchObject({
        propertyPath: 'workspaceId',
        message: 'Item not found for "not-an-id".',
      });
      await secure(path, { workspaceId: t.workspaceId }).expect(422);
      await secure(path, { tokenId: 5, workspaceId: t.workspaceId }).expect(400);
      // The secret is checked before the body: without it, a bad body is a 403 too.
      await secure(path, { tokenId: 5, workspaceId: t.workspaceId }, null).expect(403);
    });
  });
});
