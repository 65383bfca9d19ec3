import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

const strongSecret = () => randomBytes(16).toString('hex');

/**
 * Issue 22 finding 6: the push receivers (`/public/tracking_webhooks/{type}/{id}` and its token
 * URL) budget failed signature checks per credentials id and per client address (429 with
 * Retry-After, one budget for all nodes), and webhook secrets the user chooses are at least
 * 16 random-looking characters.
 */
describe('security: tracking push receivers', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;
  const saved = { ...process.env };

  beforeAll(async () => {
    process.env.PUSH_FAILURE_LIMIT_PER_CREDENTIALS = '3';
    process.env.PUSH_FAILURE_LIMIT_PER_ADDRESS = '5';
    process.env.PUSH_FAILURE_WINDOW_SECONDS = '600';
    app = await createTestApp();
    db = app.get(DataSource);
  });
  afterAll(async () => {
    process.env = saved;
    await db.query(`DELETE FROM rate_limit_counter`);
    await closeTestApp(app);
  });
  beforeEach(async () => {
    // Counters live in this worker's database, shared by the spec files it runs.
    await db.query(`DELETE FROM rate_limit_counter`);
    tenant = await createTenant(app);
  });

  const http = () => api(app, { token: tenant.token });
  const credentials = (type: string, secrets: Record<string, unknown>) =>
    http().post('/credentials', { type, team: `/teams/${tenant.teamId}`, secrets });
  const ship24 = async (secret = strongSecret()) => {
    const res = await credentials('ship24', { apiKey: 'apik_0123456789', webhookSecret: secret });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, secret };
  };
  const push = (id: string, secret: string) =>
    request(app.getHttpServer())
      .post(`/public/tracking_webhooks/ship24/${id}`)
      .set('Authorization', `Bearer ${secret}`)
      .set('Content-Type', 'application/json')
      .send('{"trackings":[]}');

  it('budgets wrong signatures per credentials id: 429 with Retry-After, even for the right one', async () => {
    const a = await ship24();
    for (let i = 0; i < 3; i++) await push(a.id, 'wrong-secret-0123456789').expect(401);
    const limited = await push(a.id, 'wrong-secret-0123456789').expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Guessing is over for the window: the right secret waits too.
    await push(a.id, a.secret).expect(429);
    // Other credentials keep their own budget.
    const b = await ship24();
    await push(b.id, b.secret).expect(202);
    await push(b.id, 'wrong-secret-0123456789').expect(401);
  });

  it('budgets wrong signatures per client address, across credentials', async () => {
    const ids = [await ship24(), await ship24(), await ship24()];
    const statuses: number[] = [];
    for (const { id } of ids) {
      for (let i = 0; i < 2; i++) statuses.push((await push(id, 'wrong-0123456789abc')).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const blocked = await push(ids[0].id, ids[0].secret).expect(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('counts wrong client secrets at the token URL against the same budget', async () => {
    const secret = strongSecret();
    const ups = await credentials('ups', {
      clientSecret: 'ups-secret-0123',
      webhookSecret: secret,
    });
    expect(ups.status).toBe(201);
    const token = (clientSecret: string) =>
      request(app.getHttpServer())
        .post(`/public/tracking_webhooks/ups/${ups.body.id}/token`)
        .auth(ups.body.id, clientSecret)
        .type('form')
        .send({ grant_type: 'client_credentials' });
    for (let i = 0; i < 3; i++) await token('not-the-secret-000').expect(401);
    const limited = await token('not-the-secret-000').expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await token(secret).expect(429);
  });

  it('refuses webhook secrets shorter than 16 characters or that do not look random (422)', async () => {
    for (const weak of [
      'abc',
      'short-secret',
      'aaaaaaaaaaaaaaaaaaaa',
      'abababababababababab',
      'abcabcabcabcabcabcabc',
      '0123456789abcdefghij',
      'zyxwvutsrqponmlkjihg',
    ]) {
      for (const type of ['ship24', 'aftership', 'easypost', 'ups']) {
        const res = await credentials(type, { webhookSecret: weak });
        expect({ weak, type, status: res.status }).toEqual({ weak, type, status: 422 });
        expect(res.body.violations).toEqual([
          expect.objectContaining({ propertyPath: 'secrets.webhookSecret' }),
        ]);
        // Never echoed: it is a secret.
        expect(JSON.stringify(res.body)).not.toContain(weak);
      }
    }
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM credentials WHERE team_id = $1`,
      [tenant.teamId],
    );
    expect(n).toBe(0);
    // Random ones of 16 characters and more are taken; a PUT is checked the same way.
    const ok = await ship24('Zq3vT9pX2mLk7RwA');
    await ship24(strongSecret());
    await http()
      .put(`/credentials/${ok.id}`, {
        type: 'ship24',
        team: `/teams/${tenant.teamId}`,
        secrets: { webhookSecret: 'x'.repeat(40) },
      })
      .expect(422);
  });
});
