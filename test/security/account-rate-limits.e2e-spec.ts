import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import * as hasher from '../../src/auth/password-hasher';
import { createClient, hiddenFields, setPassword } from '../factories/identity.factory';
import { createTenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { until } from '../support/until';
import { extract, startTestSmtp, type TestSmtp } from '../support/smtp';

const CODE = /code: ([\w-]+)/;

/**
 * Issue 11 item 3: /security/* and the consent page's password login spend budgets per
 * client address and per e-mail address (429 with Retry-After, shared through PostgreSQL);
 * a wrong reset code costs no password hashing; a new reset code voids the earlier ones.
 */
describe('security: account endpoint budgets', () => {
  let app: NestExpressApplication;
  let smtp: TestSmtp;
  const saved = { ...process.env };
  const PER_ADDRESS = 8;
  const PER_ACCOUNT = 3;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    process.env.SMTP_URL = smtp.url;
    process.env.ACCOUNT_RATE_LIMIT_PER_ADDRESS = String(PER_ADDRESS);
    process.env.ACCOUNT_RATE_LIMIT_PER_ACCOUNT = String(PER_ACCOUNT);
    app = await createTestApp();
  });
  beforeEach(() => app.get(DataSource).query('DELETE FROM rate_limit_counter'));
  afterAll(async () => {
    process.env = saved;
    await app?.get(DataSource).query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
    await smtp.close();
  });

  const http = () => api(app);

  it('forgot-password/send-email: per address, then 429 with Retry-After; one live code', async () => {
    const tenant = await createTenant(app);
    const answers: number[] = [];
    for (let i = 0; i < PER_ACCOUNT + 2; i++) {
      const res = await http().post('/security/forgot-password/send-email', {
        email: tenant.email,
      });
      answers.push(res.status);
      if (res.status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // Each code's mail before the next request: the mails' order is the codes' order.
      const sent = answers.filter((s) => s === 201).length;
      await until(() => smtp.messages.filter((m) => m.to.includes(tenant.email)).length >= sent);
    }
    expect(answers).toEqual([201, 201, 201, 429, 429]);
    await new Promise((r) => setTimeout(r, 200));
    const mails = smtp.messages.filter((m) => m.to.includes(tenant.email));
    expect(mails).toHaveLength(PER_ACCOUNT);
    const [{ live }] = await app
      .get(DataSource)
      .query(
        `SELECT count(*)::int AS live FROM user_token WHERE user_id = $1 AND purpose = 'reset_password' AND used_at IS NULL`,
        [tenant.userId],
      );
    expect(live).toBe(1);
    // The first code mailed no longer works; the last one does.
    const codes = mails.map((m) => extract(m, CODE));
    await http()
      .post('/security/forgot-password/reset', {
        code: codes[0],
        newPassword: 'a new long password',
      })
      .expect(422);
    await http()
      .post('/security/forgot-password/reset', {
        code: codes[codes.length - 1],
        newPassword: 'a new long password',
      })
      .expect(200);
  });

  it('forgot-password/reset checks the code before hashing and is budgeted per address', async () => {
    const hash = jest.spyOn(hasher, 'hashPassword');
    try {
      const statuses: number[] = [];
      for (let i = 0; i < PER_ADDRESS + 1; i++) {
        const res = await http().post('/security/forgot-password/reset', {
          code: `wrong-${i}`,
          newPassword: 'a new long password',
        });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, PER_ADDRESS)).toEqual(Array(PER_ADDRESS).fill(422));
      expect(statuses[PER_ADDRESS]).toBe(429);
      expect(hash).not.toHaveBeenCalled();
    } finally {
      hash.mockRestore();
    }
  });

  it.each([
    [
      'signup',
      '/security/signup',
      (i: number) => ({ email: `s${i}-${randomUUID()}@example.test` }),
    ],
    [
      'resend-email',
      '/security/resend-email',
      (i: number) => ({ email: `r${i}-${randomUUID()}@example.test` }),
    ],
    ['verify-email', '/security/verify-email', (i: number) => ({ code: `nope-${i}` })],
    [
      'forgot-password',
      '/security/forgot-password/send-email',
      (i: number) => ({ email: `f${i}-${randomUUID()}@example.test` }),
    ],
  ])('%s: one client address is stopped across many e-mail addresses', async (_n, path, body) => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 1; i++)
      statuses.push((await http().post(path, body(i))).status);
    expect(statuses.slice(0, PER_ADDRESS).every((s) => s < 429)).toBe(true);
    expect(statuses[PER_ADDRESS]).toBe(429);
  });

  it('signup: one address is stopped after its budget', async () => {
    const email = `one-${randomUUID()}@example.test`;
    const statuses: number[] = [];
    for (let i = 0; i < PER_ACCOUNT + 1; i++)
      statuses.push((await http().post('/security/signup', { email })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('the consent page password login is budgeted per account, on failures', async () => {
    const tenant = await createTenant(app);
    await setPassword(app, tenant.userId, 'the right password');
    const client = await createClient(app, tenant, { redirectUris: ['https://app.example/cb'] });
    const page = await http()
      .get(`/oauth/v2/auth?client_id=${client.clientId}&response_type=code&state=s`)
      .set('Accept', 'text/html')
      .expect(200);
    const fields = hiddenFields(page.text);
    const post = (password: string) =>
      api(app)
        .post('/oauth/v2/auth')
        .set('Cookie', page.headers['set-cookie'])
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .set('Accept', 'text/html')
        .send(
          new URLSearchParams({
            ...fields,
            email: tenant.email,
            password,
            allowed: 'true',
          }).toString(),
        );
    // Signing in successfully spends nothing of the account's budget.
    for (let i = 0; i < PER_ACCOUNT + 1; i++)
      expect((await post('the right password')).status).toBe(302);
    await app.get(DataSource).query('DELETE FROM rate_limit_counter');
    // Wrong passwords do: the one beyond the budget locks the account, right password or not.
    const statuses: number[] = [];
    for (let i = 0; i <= PER_ACCOUNT; i++) statuses.push((await post(`guess-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const blocked = await post('the right password');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.headers.location).toBeUndefined();
  });
});
