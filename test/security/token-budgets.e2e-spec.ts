import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createClient } from '../factories/identity.factory';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

const PER_CLIENT = 3;
const WEBHOOK_SECRET = 'ups-track-alert-client-secret';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/**
 * Issue 22 finding 5: the per-client budget of the token endpoints counts the client that is
 * authenticated, the HTTP Basic user name when Basic is used: guesses at one client's secret
 * through Basic cannot buy fresh budgets with made-up body `client_id`s. A body `client_id` that
 * differs from the Basic one is a 400 invalid_request (RFC 6749 2.3: one client per request).
 */
describe('security: token endpoint budgets count the authenticated client', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  const saved = { ...process.env };

  beforeAll(async () => {
    process.env.TOKEN_RATE_LIMIT_PER_CLIENT = String(PER_CLIENT);
    process.env.TOKEN_RATE_LIMIT_PER_ADDRESS = '1000';
    process.env.TOKEN_RATE_WINDOW_SECONDS = '60';
    app = await createTestApp();
    await app.get(DataSource).query('DELETE FROM rate_limit_counter');
    tenant = await createTenant(app);
  });
  afterAll(async () => {
    process.env = saved;
    await app?.get(DataSource).query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
  });

  describe('POST /oauth/v2/token', () => {
    const ask = (authorization: string, form: Record<string, string>) =>
      request(app.getHttpServer())
        .post('/oauth/v2/token')
        .set('Authorization', authorization)
        .type('form')
        .send({ grant_type: 'client_credentials', ...form });

    it('spends the Basic client’s budget whatever client_id the body names', async () => {
      const client = await createClient(app, tenant);
      const statuses: number[] = [];
      for (let i = 0; i <= PER_CLIENT; i++) {
        const res = await ask(basic(client.clientId, `guess-${i}`), { client_id: randomUUID() });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, PER_CLIENT)).toEqual(Array(PER_CLIENT).fill(400));
      expect(statuses[PER_CLIENT]).toBe(429);
      // The budget is the client's: the right secret waits too.
      await ask(basic(client.clientId, client.clientSecret), {}).expect(429);
    });

    it('counts the console’s public client per address only: nobody can spend it for all', async () => {
      // Every merchant's sign-ins and refreshes name this client_id, and it has no secret.
      const statuses: number[] = [];
      for (let i = 0; i <= PER_CLIENT + 1; i++) {
        const res = await request(app.getHttpServer())
          .post('/oauth/v2/token')
          .type('form')
          .send({
            grant_type: 'refresh_token',
            refresh_token: `guess-${i}`,
            client_id: 'admin-console',
          });
        statuses.push(res.status);
      }
      expect(statuses).toEqual(Array(PER_CLIENT + 2).fill(400));
    });

    it('answers 400 invalid_request when the body’s client_id is not the Basic one', async () => {
      const client = await createClient(app, tenant);
      const other = await createClient(app, tenant);
      const res = await ask(basic(client.clientId, client.clientSecret), {
        client_id: other.clientId,
        client_secret: other.clientSecret,
      }).expect(400);
      expect(res.body).toEqual({
        error: 'invalid_request',
        error_description: expect.stringMatching(/client_id/),
      });
      expect(res.headers['cache-control']).toBe('no-store');
      // The same client named in both places is one client.
      const same = await ask(basic(client.clientId, client.clientSecret), {
        client_id: client.clientId,
      }).expect(200);
      expect(same.body.access_token).toEqual(expect.any(String));
    });

    it('counts body credentials by their client_id, and the query’s on GET', async () => {
      const client = await createClient(app, tenant);
      const guess = (i: number) =>
        request(app.getHttpServer())
          .get('/oauth/v2/token')
          .query({
            grant_type: 'client_credentials',
            client_id: client.clientId,
            client_secret: `g${i}`,
          });
      for (let i = 0; i < PER_CLIENT; i++) await guess(i).expect(400);
      await guess(PER_CLIENT).expect(429);
    });
  });

  describe('POST /public/tracking_webhooks/ups/{id}/token', () => {
    let credentialsId: string;
    let url: string;

    beforeAll(async () => {
      const created = await api(app, { token: tenant.token })
        .post('/credentials', {
          type: 'ups',
          team: `/teams/${tenant.teamId}`,
          parameters: { clientId: 'ups-client' },
          secrets: { clientSecret: 'ups-client-secret', webhookSecret: WEBHOOK_SECRET },
        })
        .expect(201);
      credentialsId = created.body.id;
      url = `/public/tracking_webhooks/ups/${credentialsId}/token`;
    });

    const ask = (authorization: string, form: Record<string, string>) =>
      request(app.getHttpServer())
        .post(url)
        .set('Authorization', authorization)
        .type('form')
        .send({ grant_type: 'client_credentials', ...form });

    it('answers 400 invalid_request when the body’s client_id is not the Basic one', async () => {
      const res = await ask(basic(credentialsId, WEBHOOK_SECRET), {
        client_id: randomUUID(),
      }).expect(400);
      expect(res.body).toEqual({ error: 'invalid_request' });
      await ask(basic(credentialsId, WEBHOOK_SECRET), { client_id: credentialsId }).expect(200);
    });

    it('spends the Basic client’s budget whatever client_id the body names', async () => {
      await app.get(DataSource).query('DELETE FROM rate_limit_counter');
      const statuses: number[] = [];
      for (let i = 0; i <= PER_CLIENT; i++) {
        const res = await ask(basic(credentialsId, `guess-${i}`), { client_id: randomUUID() });
        statuses.push(res.status);
      }
      expect(statuses[PER_CLIENT]).toBe(429);
      // Encodings of one id (RFC 6749 form-encodes Basic credentials) share its budget.
      const encoded = credentialsId.replace(/-/g, '%2D');
      await ask(basic(encoded, WEBHOOK_SECRET), {}).expect(429);
    });
  });
});
