import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { PasswordLogin } from '../../src/auth/password-login';
import { UserTokens } from '../../src/security/user-tokens';
import {
  consentCode,
  createClient,
  delegatedGrant,
  exchangeCode,
  setPassword,
  type ClientCredentials,
  type DelegatedGrant,
} from '../factories/identity.factory';
import { createTenant, issueToken, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

const PASSWORD = 'the old password 1';
const NEW_PASSWORD = 'the new password 2';

/** What someone who held the account could have left behind. */
interface Footholds {
  owner: Tenant;
  /** An OAuth client made with the account (its secret known to whoever made it). */
  client: ClientCredentials;
  /** A client-credentials token of that client. */
  clientToken: string;
  /** A third-party application's tokens, granted on the consent page. */
  grant: DelegatedGrant;
  /** A code the consent page issued, not exchanged yet. */
  pendingCode: string;
}

/**
 * Issue 22 finding 3: a password reset, and a change of the password with `currentPassword`,
 * end every access made before: access and refresh tokens, authorization codes, and the OAuth
 * clients the account made (unless `keepOAuthClients: true`). A change keeps the caller's own
 * token working.
 */
describe('security: a password reset or change ends the access made before', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let partner: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    partner = await createTenant(app);
  });
  afterAll(async () => {
    await db?.query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
  });

  const token = (form: Record<string, string>) =>
    request(app.getHttpServer()).post('/oauth/v2/token').type('form').send(form);
  const clientCredentials = (c: ClientCredentials) =>
    token({
      grant_type: 'client_credentials',
      client_id: c.clientId,
      client_secret: c.clientSecret,
    });

  async function footholds(): Promise<Footholds> {
    const owner = await createTenant(app);
    await setPassword(app, owner.userId, PASSWORD);
    const client = await createClient(app, owner, { redirectUris: ['https://own.example/cb'] });
    const clientToken = (await clientCredentials(client).expect(200)).body.access_token;
    const grant = await delegatedGrant(app, partner, owner, PASSWORD);
    const pendingCode = await consentCode(app, grant.client, owner, PASSWORD);
    return { owner, client, clientToken, grant, pendingCode };
  }

  const resetCode = (userId: string) =>
    app.get(UserTokens).issue(db.manager, userId, 'reset_password');

  const clientsOf = async (userId: string): Promise<number> =>
    (await db.query(`SELECT count(*)::int AS n FROM oauth_client WHERE user_id = $1`, [userId]))[0]
      .n;

  /** Every token, refresh token and code of `f` made before is dead. */
  async function expectTokensRevoked(f: Footholds): Promise<void> {
    await api(app, { token: f.clientToken }).get('/workspaces').expect(401);
    await api(app, { token: f.grant.accessToken }).get('/workspaces').expect(401);
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: f.grant.refreshToken,
      client_id: f.grant.client.clientId,
      client_secret: f.grant.client.clientSecret,
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    const exchanged = await exchangeCode(app, f.grant.client, f.pendingCode);
    expect(exchanged.status).toBe(400);
    expect(exchanged.body.error).toBe('invalid_grant');
  }

  describe('POST /security/forgot-password/reset', () => {
    it('revokes every token and code and deletes the account’s OAuth clients', async () => {
      const f = await footholds();
      await api(app)
        .post('/security/forgot-password/reset', {
          code: await resetCode(f.owner.userId),
          newPassword: NEW_PASSWORD,
        })
        .expect(200);
      await api(app, { token: f.owner.token }).get('/workspaces').expect(401);
      await expectTokensRevoked(f);
      expect(await clientsOf(f.owner.userId)).toBe(0);
      const refused = await clientCredentials(f.client).expect(400);
      expect(refused.body.error).toBe('invalid_client');
      // The partner's application itself is the partner's: it stays.
      expect(await clientsOf(partner.userId)).toBeGreaterThan(0);
    });

    it('keeps the OAuth clients when asked to (their tokens still end)', async () => {
      const f = await footholds();
      await api(app)
        .post('/security/forgot-password/reset', {
          code: await resetCode(f.owner.userId),
          newPassword: NEW_PASSWORD,
          keepOAuthClients: true,
        })
        .expect(200);
      await expectTokensRevoked(f);
      expect(await clientsOf(f.owner.userId)).toBe(1);
      await clientCredentials(f.client).expect(200);
    });

    it('refuses a keepOAuthClients that is no boolean (400), changing nothing', async () => {
      const f = await footholds();
      const code = await resetCode(f.owner.userId);
      const res = await api(app)
        .post('/security/forgot-password/reset', {
          code,
          newPassword: NEW_PASSWORD,
          keepOAuthClients: 'yes',
        })
        .expect(400);
      expect(res.body['hydra:description']).toMatch(/keepOAuthClients/);
      await api(app, { token: f.clientToken }).get('/workspaces').expect(200);
      expect(await app.get(PasswordLogin).authenticate(f.owner.email, PASSWORD)).not.toBeNull();
      expect(await clientsOf(f.owner.userId)).toBe(1);
    });
  });

  describe('PUT /users/{id} with currentPassword', () => {
    const change = (f: Footholds, as: string, extra: Record<string, unknown> = {}) =>
      api(app, { token: as }).put(`/users/${f.owner.userId}`, {
        plainPassword: NEW_PASSWORD,
        currentPassword: PASSWORD,
        ...extra,
      });

    it('revokes every other token and code and deletes the OAuth clients; the caller’s session stays', async () => {
      const f = await footholds();
      const otherSession = await issueToken(app, f.owner.userId);
      await change(f, f.owner.token).expect(200);
      await api(app, { token: f.owner.token }).get('/workspaces').expect(200);
      await api(app, { token: otherSession }).get('/workspaces').expect(401);
      await expectTokensRevoked(f);
      expect(await clientsOf(f.owner.userId)).toBe(0);
    });

    it('keeps the OAuth clients when asked to', async () => {
      const f = await footholds();
      await change(f, f.owner.token, { keepOAuthClients: true }).expect(200);
      await expectTokensRevoked(f);
      expect(await clientsOf(f.owner.userId)).toBe(1);
      await clientCredentials(f.client).expect(200);
    });

    it('from a token of one of the deleted clients: that token ends with its client', async () => {
      const f = await footholds();
      await change(f, f.clientToken).expect(200);
      await api(app, { token: f.clientToken }).get('/workspaces').expect(401);
      expect(await clientsOf(f.owner.userId)).toBe(0);
    });

    it('a wrong current password or a keepOAuthClients that is no boolean changes nothing', async () => {
      const f = await footholds();
      await change(f, f.owner.token, { currentPassword: 'not the password' }).expect(422);
      await change(f, f.owner.token, { keepOAuthClients: 1 }).expect(400);
      await api(app, { token: f.clientToken }).get('/workspaces').expect(200);
      await api(app, { token: f.grant.accessToken }).get('/workspaces').expect(200);
      expect(await clientsOf(f.owner.userId)).toBe(1);
    });
  });

  it('documents keepOAuthClients in OpenAPI', async () => {
    const doc = (await api(app).json().get('/docs.json').expect(200)).body;
    const schemaOf = (op: Record<string, any>) => {
      const schema = op.requestBody.content['application/json'].schema;
      return schema.$ref
        ? doc.components.schemas[schema.$ref.split('/').pop()]
        : (schema as Record<string, any>);
    };
    const reset = schemaOf(doc.paths['/security/forgot-password/reset'].post);
    expect(reset.properties.keepOAuthClients).toMatchObject({ type: 'boolean' });
    expect(reset.properties.keepOAuthClients.description).toMatch(/OAuth clients/);
    const put = schemaOf(doc.paths['/users/{id}'].put);
    expect(put.properties.keepOAuthClients).toMatchObject({ type: 'boolean', writeOnly: true });
    expect(put.properties.currentPassword).toMatchObject({ type: 'string', writeOnly: true });
  });
});
