import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import * as hasher from '../../src/auth/password-hasher';
import { PasswordLogin } from '../../src/auth/password-login';
import { createTenant } from '../factories/tenant.factory';
import { FakeStorefrontApp } from '../fakes/storefront-app-fake';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { extract, startTestSmtp, type TestSmtp } from '../support/smtp';

const APP_KEY = 'storefront-app-key';
const PATH = '/integration/storefront/register';

/**
 * Issue 22 item 4: the storefront sign-up (`POST /integration/storefront/register`) told
 * whether an address had an account (its 422), hashed the password before its checks, had no
 * budget, and took one installation token again whenever its shop link was gone.
 */
describe('security: storefront registration', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let smtp: TestSmtp;
  const storefront = new FakeStorefrontApp(APP_KEY, {});
  const saved = { ...process.env };
  const PER_ADDRESS = 8;
  const PER_ACCOUNT = 3;

  beforeAll(async () => {
    await storefront.start();
    smtp = await startTestSmtp();
    Object.assign(process.env, {
      SMTP_URL: smtp.url,
      STOREFRONT_APP_URL: storefront.url,
      STOREFRONT_APP_API_KEY: APP_KEY,
      ACCOUNT_RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
      ACCOUNT_RATE_LIMIT_PER_ACCOUNT: String(PER_ACCOUNT),
    });
    app = await createTestApp();
    db = app.get(DataSource);
  });
  beforeEach(() => db.query('DELETE FROM rate_limit_counter'));
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    process.env = saved;
    await db?.query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
    await smtp.close();
    await storefront.stop();
  });

  /** An installation of the app in a shop whose own address is `shopEmail`. */
  function installation(shopEmail = 'owner@shop.example.test'): string {
    const tokenId = `inst_${randomBytes(6).toString('hex')}`;
    storefront.installations[tokenId] = {
      id: tokenId,
      shop: `${tokenId}.storefront.test`,
      shopName: 'Acme Shop',
      email: shopEmail,
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

  const register = (body: Record<string, unknown>) => api(app).post(PATH, body);
  /** An answer with the address it names taken out, to compare two answers. */
  const neutral = (body: Record<string, unknown>, email: string) =>
    JSON.parse(JSON.stringify(body).split(email).join('<email>'));

  it('answers a known address exactly like a new one; its owner is told by mail instead', async () => {
    const owner = await createTenant(app);
    const fresh = registration(installation());
    const known = registration(installation(), { email: owner.email });

    const a = await register(fresh);
    const b = await register(known);
    expect(b.status).toBe(a.status);
    expect(neutral(b.body, owner.email)).toEqual(neutral(a.body, fresh.email));
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ accessToken: null, refreshToken: null, team: null });

    // The owner of the known address hears of it; their account is as it was.
    const notice = await smtp.waitFor(owner.email, /storefront|already/i);
    expect(notice.text).toContain('already has an account');
    const [{ teams }] = await db.query(
      `SELECT count(*)::int AS teams FROM team_member WHERE member_id = $1`,
      [owner.userId],
    );
    expect(teams).toBe(1);
    expect(
      await db.query(`SELECT 1 FROM tracking_page WHERE subdomain = $1`, [known.subdomain]),
    ).toHaveLength(0);

    // The new address gets a code; using it signs in to the registered shop's workspace.
    const code = extract(await smtp.waitFor(fresh.email, /Verify/), /code: ([\w-]+)/);
    const verified = await api(app).post('/security/verify-email', { code }).expect(201);
    const token = verified.body.token.access_token as string;
    const workspaces = await api(app, { token }).get('/workspaces').expect(200);
    expect(workspaces.body['hydra:member']).toHaveLength(1);
    // The password given at registration holds once the address is proven.
    expect(
      await app.get(PasswordLogin).authenticate(fresh.email, fresh.plainPassword),
    ).not.toBeNull();

    // A taken subdomain is refused the same way for both.
    const takenA = await register(
      registration(installation(), { subdomain: fresh.subdomain, email: `new-${fresh.email}` }),
    );
    const takenB = await register(
      registration(installation(), { subdomain: fresh.subdomain, email: owner.email }),
    );
    expect(takenA.status).toBe(422);
    expect(takenB.status).toBe(422);
    expect(takenB.body).toEqual(takenA.body);
  });

  it('checks everything before it hashes the password', async () => {
    const owner = await createTenant(app);
    const first = registration(installation());
    await register(first).expect(201);
    const hash = jest.spyOn(hasher, 'hashPassword');

    await register(registration('inst_unknown')).expect(422);
    await register(registration(installation(), { subdomain: first.subdomain })).expect(422);
    await register(registration(first.tokenId)).expect(422);
    await register(registration(installation(), { team: 'A$' })).expect(422);
    expect(hash).not.toHaveBeenCalled();

    // Accepted ones hash, a known address as long as a new one.
    await register(registration(installation())).expect(201);
    await register(registration(installation(), { email: owner.email })).expect(201);
    expect(hash).toHaveBeenCalledTimes(2);
  });

  it('spends the account budgets per client address and per e-mail address', async () => {
    const email = `budget-${randomBytes(4).toString('hex')}@example.test`;
    const perAccount: number[] = [];
    for (let i = 0; i < PER_ACCOUNT + 1; i++) {
      const res = await register(registration('inst_unknown', { email }));
      perAccount.push(res.status);
      if (res.status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(perAccount).toEqual([...Array(PER_ACCOUNT).fill(422), 429]);
    // Another address is still served, until the client's own budget runs out.
    await db.query('DELETE FROM rate_limit_counter');
    const perAddress: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 1; i++)
      perAddress.push((await register(registration('inst_unknown'))).status);
    expect(perAddress).toEqual([...Array(PER_ADDRESS).fill(422), 429]);
    // A malformed request spends nothing.
    await db.query('DELETE FROM rate_limit_counter');
    for (let i = 0; i < PER_ACCOUNT + 1; i++)
      await register({ ...registration('x', { email }), plainPassword: 42 }).expect(400);
    await register(registration('inst_unknown', { email })).expect(422);
  });

  it('takes an installation token once, on every node, even after its shop link is gone', async () => {
    const shopEmail = `owner-${randomBytes(4).toString('hex')}@example.test`;
    const tokenId = installation(shopEmail);
    const first = await register(registration(tokenId, { email: shopEmail })).expect(201);
    const token = first.body.accessToken as string;
    expect(token).toEqual(expect.any(String));
    // The workspace (and with it the shop's link) is deleted: the token stays spent.
    await api(app, { token }).delete(`/workspaces/${first.body.workspace.id}`).expect(204);
    const replay = await register(registration(tokenId)).expect(422);
    expect(replay.body.violations).toEqual([
      expect.objectContaining({
        propertyPath: 'tokenId',
        message:
          'This storefront installation has already been used to register: sign in and link the shop from your workspace.',
      }),
    ]);

    // Two at once with a fresh token: one account, the other refused the same way.
    const racing = installation();
    const answers = await Promise.all([
      register(registration(racing)),
      register(registration(racing)),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 422]);

    // Recorded in the database: another node refuses the replay too.
    const other = await createTestApp();
    try {
      const res = await api(other).post(PATH, registration(racing)).expect(422);
      expect(res.body.violations[0].propertyPath).toBe('tokenId');
    } finally {
      await closeTestApp(other);
    }
  });
});
