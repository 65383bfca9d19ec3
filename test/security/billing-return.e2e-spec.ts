import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTenant, Tenant } from '../factories/tenant.factory';
import { FakeStorefrontApp } from '../fakes/storefront-app-fake';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

const APP_KEY = 'storefront-app-key';
const PUBLIC_URL = 'https://api.example.test';
const CHECKOUT = '/billing/storefront/checkout_subscription';

/**
 * Issue 22 item 7: `GET /billing/storefront/return` redirected to whatever `returnUrl` the
 * checkout was given, again and again and without authentication once the checkout was
 * settled: an open redirect on the service's own origin.
 */
describe('security: the storefront billing return', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  const storefront = new FakeStorefrontApp(APP_KEY, {});
  const saved = { ...process.env };

  beforeAll(async () => {
    await storefront.start();
    Object.assign(process.env, {
      BILLING_PROVIDER_URL: 'http://127.0.0.1:9',
      BILLING_PROVIDER_API_KEY: 'unused',
      STOREFRONT_APP_URL: storefront.url,
      STOREFRONT_APP_API_KEY: APP_KEY,
      PUBLIC_URL,
    });
    app = await createTestApp();
    db = app.get(DataSource);
  });
  afterAll(async () => {
    process.env = saved;
    await closeTestApp(app);
    await storefront.stop();
  });

  const browser = () => request(app.getHttpServer());

  /** A tenant whose team installed the storefront app, with a verified and a pending domain. */
  async function merchant(): Promise<Tenant & { verified: string; unverified: string }> {
    const t = await createTenant(app);
    const tokenId = `inst-${randomBytes(6).toString('hex')}`;
    storefront.installations[tokenId] = { id: tokenId, shop: `${tokenId}.test`, shopName: 'S' };
    await db.query(
      `INSERT INTO integration_link (team_id, workspace_id, kind, external_id, account)
       VALUES ($1, $2, 'storefront', $3, $4)`,
      [t.teamId, t.workspaceId, tokenId, `${tokenId}.test`],
    );
    const tag = randomBytes(4).toString('hex');
    const verified = `track-${tag}.shop.test`;
    const unverified = `pending-${tag}.shop.test`;
    await db.query(
      `INSERT INTO tracking_page (workspace_id, subdomain, domain, domain_enabled)
       VALUES ($1, $2, $3, true), ($1, $4, $5, false)`,
      [t.workspaceId, `v-${tag}`, verified, `u-${tag}`, unverified],
    );
    return { ...t, verified, unverified };
  }

  const checkout = (t: Tenant, returnUrl: string) =>
    api(app, { token: t.token }).post(CHECKOUT, { teamId: t.teamId, planId: 'pro', returnUrl });

  it('takes only return URLs on the service’s origin or the team’s verified domains', async () => {
    const t = await merchant();
    const other = await merchant();
    for (const returnUrl of [
      'https://evil.example/phish',
      `https://${t.unverified}/billing`,
      `https://${other.verified}/billing`,
      `http://${t.verified}/billing`,
      'https://api.example.test.evil.example/billing',
      'http://api.example.test/billing',
    ]) {
      const res = await checkout(t, returnUrl).expect(422);
      expect(res.body.violations).toEqual([
        expect.objectContaining({
          propertyPath: 'returnUrl',
          message:
            'The return URL must be on this service (https://api.example.test) or on a verified custom domain of the team.',
        }),
      ]);
    }
    await checkout(t, `${PUBLIC_URL}/app/billing?tab=plan`).expect(200);
    await checkout(t, `https://${t.verified.toUpperCase()}/thanks`).expect(200);
  });

  it('sends the browser back once; later visits get a page, without a redirect', async () => {
    const t = await merchant();
    await checkout(t, `https://${t.verified}/thanks`).expect(200);
    const charge = storefront.last();
    storefront.approve(charge.id);
    const first = await browser().get(storefront.returnPath(charge.id)).expect(302);
    expect(first.headers.location).toBe(`https://${t.verified}/thanks?subscription=active`);
    for (let i = 0; i < 2; i++) {
      const again = await browser().get(storefront.returnPath(charge.id)).expect(200);
      expect(again.headers.location).toBeUndefined();
      expect(again.headers['content-type']).toMatch(/^text\/html/);
      expect(again.text).toContain('The subscription is active.');
    }
  });

  it('never follows a stored return URL that is not allowed (any more)', async () => {
    const t = await merchant();
    await checkout(t, `https://${t.verified}/thanks`).expect(200);
    const charge = storefront.last();
    // A checkout made before the rule, or a domain no longer verified since.
    await db.query(`UPDATE billing_checkout SET return_url = $2 WHERE external_id = $1`, [
      charge.id,
      'https://evil.example/phish',
    ]);
    storefront.approve(charge.id);
    const res = await browser().get(storefront.returnPath(charge.id)).expect(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain('The subscription is active.');
    // The charge still counts: the team is on its plan.
    const team = await api(app, { token: t.token }).get(`/teams/${t.teamId}`).expect(200);
    expect(team.body.subscription).toMatchObject({ status: 'active', planId: 'pro' });
  });
});
