import type { INestApplication } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/clock';
import { hashPassword } from '../../src/auth/password-hasher';
import { api } from '../support/http';
import { issueToken, type Tenant } from './tenant.factory';

export interface ClientCredentials {
  id: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

/** An OAuth client of the tenant's user, created over HTTP (the secret is in that answer only). */
export async function createClient(
  app: INestApplication,
  tenant: Pick<Tenant, 'token'>,
  body: { name?: string; redirectUris?: string[] } = {},
): Promise<ClientCredentials> {
  const res = await api(app, { token: tenant.token })
    .post('/oauth_clients', { name: 'Test app', redirectUris: [], ...body })
    .expect(201);
  return {
    id: res.body.id,
    clientId: res.body.publicId,
    clientSecret: res.body.secret,
    redirectUris: res.body.redirectUris,
  };
}

/**
 * Moves the application's clock (src/common/clock.ts) forward by `seconds` from now on;
 * returns a function that puts it back.
 */
export function travel(app: INestApplication, seconds: number): () => void {
  const clock = app.get(Clock);
  const real = Clock.prototype.now;
  const spy = jest.spyOn(clock, 'now').mockImplementation(function (this: Clock) {
    return new Date(real.call(this).getTime() + seconds * 1000);
  });
  return () => spy.mockRestore();
}

/** A user's token answer with a refresh token (code and refresh grants), as jest expects it. */
export function userTokenAnswer(user: { userId: string; email: string }) {
  return {
    access_token: expect.any(String),
    expires_in: 3600,
    token_type: 'bearer',
    scope: 'user',
    refresh_token: expect.any(String),
    user_id: user.userId,
    user_email: user.email,
  };
}

/** A PKCE verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

/** Gives a user a password (scrypt hash written directly). */
export async function setPassword(
  app: INestApplication,
  userId: string,
  password: string,
): Promise<void> {
  await app
    .get(DataSource)
    .query(`UPDATE "user" SET password_hash = $2 WHERE id = $1`, [
      userId,
      await hashPassword(password),
    ]);
}

/** The hidden fields of the authorization page's form. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1]] = m[2]
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }
  return fields;
}

export interface Member {
  userId: string;
  email: string;
  token: string;
  teamMemberId: string;
}

/** A new verified user in the tenant's team with `role`, with access to `workspaceIds`. */
export async function joinTeam(
  app: INestApplication,
  tenant: Pick<Tenant, 'teamId'>,
  role: 'owner' | 'admin' | 'member',
  workspaceIds: string[] = [],
): Promise<Member> {
  const db = app.get(DataSource);
  const email = `member-${randomBytes(6).toString('hex')}@example.test`;
  const [user] = await db.query(
    `INSERT INTO "user" (email, email_verified) VALUES ($1, true) RETURNING id`,
    [email],
  );
  const [membership] = await db.query(
    `INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, $3) RETURNING id`,
    [tenant.teamId, user.id, role],
  );
  for (const workspaceId of workspaceIds) {
    await db.query(`INSERT INTO workspace_member (workspace_id, user_id) VALUES ($1, $2)`, [
      workspaceId,
      user.id,
    ]);
  }
  return {
    userId: user.id,
    email,
    token: await issueToken(app, user.id),
    teamMemberId: membership.id,
  };
}

/**
 * Makes the verified account of `email` (created if missing) a plain member of the tenant's
 * team, e.g. as the recipient of a test e-mail.
 */
export async function addTeamMemberByEmail(
  app: INestApplication,
  tenant: Pick<Tenant, 'teamId'>,
  email: string,
): Promise<string> {
  const db = app.get(DataSource);
  await db.query(
    `INSERT INTO "user" (email, email_verified) VALUES ($1, true) ON CONFLICT (email) DO NOTHING`,
    [email],
  );
  const [user] = await db.query(`SELECT id FROM "user" WHERE email = $1`, [email]);
  await db.query(
    `INSERT INTO team_member (team_id, member_id, role) SELECT $1, $2, 'member'
      WHERE NOT EXISTS (SELECT 1 FROM team_member WHERE team_id = $1 AND member_id = $2)`,
    [tenant.teamId, user.id],
  );
  return user.id;
}

/** Tokens a third-party application got through the authorization-code flow. */
export interface DelegatedGrant {
  accessToken: string;
  refreshToken: string;
  client: ClientCredentials;
}

/**
 * The consent of `user` (whose password is `password`) to `client` on the authorization page:
 * the code the page redirects with, not exchanged yet.
 */
export async function consentCode(
  app: INestApplication,
  client: ClientCredentials,
  user: { email: string },
  password: string,
): Promise<string> {
  const redirect = client.redirectUris[0];
  const server = () => request(app.getHttpServer());
  const page = await server()
    .get('/oauth/v2/auth')
    .query({ client_id: client.clientId, redirect_uri: redirect, response_type: 'code' })
    .expect(200);
  const consent = await server()
    .post('/oauth/v2/auth')
    .set('Cookie', page.headers['set-cookie'])
    .type('form')
    .send({ ...hiddenFields(page.text), email: user.email, password, allowed: 'true' })
    .expect(302);
  return new URL(consent.headers.location).searchParams.get('code')!;
}

/** Exchanges a code of `client` at the token endpoint; the raw answer. */
export function exchangeCode(app: INestApplication, client: ClientCredentials, code: string) {
  return request(app.getHttpServer()).post('/oauth/v2/auth').send({
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirectUris[0],
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
}

/**
 * The authorization-code flow run for `user` (whose password is `password`) by an OAuth client
 * of another account, `partner`: the page, the consent form, the code exchange.
 */
export async function delegatedGrant(
  app: INestApplication,
  partner: Pick<Tenant, 'token'>,
  user: { email: string },
  password: string,
): Promise<DelegatedGrant> {
  const client = await createClient(app, partner, { redirectUris: ['https://partner.example/cb'] });
  const code = await consentCode(app, client, user, password);
  const exchange = await exchangeCode(app, client, code).expect(200);
  return {
    accessToken: exchange.body.access_token,
    refreshToken: exchange.body.refresh_token,
    client,
  };
}
