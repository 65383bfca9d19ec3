import type { NestExpressApplication } from '@nestjs/platform-express';
import { createHmac, randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createTenant, Tenant } from './factories/tenant.factory';
import { daysFromNow, FakeCharge, FakeStorefrontApp } from './fakes/storefront-app-fake';

/**
 * Storefront subscription charges end to end, as the storefront platform bills apps: the real
 * HTTP adapter creates and reads charges at a local storefront app (test/fakes), the test plays
 * the merchant approving or declining on the platform, then the browser's way back to our
 * return URL, and the app's signed webhooks for later changes of the charge.
 */

const APP_KEY = 'storefront-app-key';
const WEBHOOK_SECRET = 'storefront-webhook-secret';
const PUBLIC_URL = 'https://api.example.test';
const CLIENT_RETURN = `${PUBLIC_URL}/app/billing?tab=plan`;
const RETURN_PATH = '/billing/storefront/return';

describe('storefront billing', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  const storefront = new FakeStorefrontApp(APP_KEY, {}, WEBHOOK_SECRET);
  let shopSeq = 0;

  beforeAll(async () => {
    await storefront.start();
    Object.assign(process.env, {
      // Billing is on (a provider is configured; storefront charges never call it).
      BILLING_PROVIDER_URL: 'http://127.0.0.1:9',
      BILLING_PROVIDER_API_KEY: 'unused',
      BILLING_ENFORCE_ENTITLEMENTS: 'true',
      STOREFRONT_APP_URL: storefront.url,
      STOREFRONT_APP_API_KEY: APP_KEY,
      STOREFRONT_APP_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PUBLIC_URL,
    });
    app = await createTestApp();
    db = app.get(DataSource);
  });

  afterAll(async () => {
    await closeTestApp(app);
    await storefront.stop();
  });

  const as = (t: Tenant) => api(app, { token: t.token });
  const browser = () => request(app.getHttpServer());

  /** Installs the storefront app in a shop of its own for the team. */
  async function linkShop(t: Tenant): Promise<string> {
    const tokenId = `inst-${process.pid}-${++shopSeq}`;
    const shop = `shop-${shopSeq}.storefront.test`;
    storefront.installations[tokenId] = { id: tokenId, shop, shopName: 'Shop', currency: 'USD' };
    await db.query(
      `INSERT INTO integration_link (team_id, workspace_id, kind, external_id, account)
       VALUES ($1, $2, 'storefront', $3, $4)`,
      [t.teamId, t.workspaceId, tokenId, shop],
    );
    return tokenId;
  }

  /** A tenant with a shop and a pending charge for `planId`. */
  async function checkout(
    planId = 'starter',
    t?: Tenant,
  ): Promise<{ t: Tenant; charge: FakeCharge }> {
    const tenant = t ?? (await createTenant(app));
    if (!t) await linkShop(tenant);
    await as(tenant)
      .post('/billing/storefront/checkout_subscription', {
        teamId: tenant.teamId,
        planId,
        returnUrl: CLIENT_RETURN,
      })
      .expect(200);
    return { t: tenant, charge: storefront.last() };
  }

  const team = async (t: Tenant) => (await as(t).get(`/teams/${t.teamId}`).expect(200)).body;

  /** What a refused request must leave as it was. */
  async function billingState(teamId: string) {
    const [subscriptions, checkouts] = await Promise.all([
      db.query(`SELECT * FROM subscription WHERE team_id = $1`, [teamId]),
      db.query(
        `SELECT id, status, completed_at FROM billing_checkout WHERE team_id = $1 ORDER BY id`,
        [teamId],
      ),
    ]);
    return { subscriptions, checkouts };
  }

  function sendWebhook(
    body: { raw: string; signature: string },
    header = 'X-Storefront-Hmac-Sha256',
  ) {
    return browser()
      .post('/billing/storefront/webhook')
      .set('Content-Type', 'application/json')
      .set(header, body.signature)
      .send(body.raw);
  }

  const outcomeOf = (location: string) => new URL(location).searchParams.get('subscription');

  describe('checkout', () => {
    it('creates the charge with our return URL and keeps the client’s', async () => {
      const t = await createTenant(app);
      const path = '/billing/storefront/checkout_subscription';
      const body = { teamId: t.teamId, planId: 'starter', returnUrl: CLIENT_RETURN };
      const none = await as(t).post(path, body).expect(422);
      expect(none.body.violations[0].message).toBe(
        'This team has no storefront installation: install the storefront app first.',
      );
      const tokenId = await linkShop(t);
      const res = await as(t).post(path, body).expect(200);
      const charge = storefront.last();
      expect(res.body).toMatchObject({
        '@type': 'StorefrontSubscriptionCheckout',
        confirmationUrl: `https://shop-${shopSeq}.storefront.test/admin/charges/${charge.id}/confirm`,
      });
      const [row] = await db.query(
        `SELECT * FROM billing_checkout WHERE team_id = $1 AND provider = 'storefront'`,
        [t.teamId],
      );
      expect(row).toMatchObject({
        plan_id: 'starter',
        external_id: charge.id,
        return_url: CLIENT_RETURN,
        installation: tokenId,
        status: 'pending',
        completed_at: null,
      });
      expect(charge.tokenId).toBe(tokenId);
      expect(charge.request).toEqual({
        name: 'Starter plan',
        price: '19.00',
        currency: 'USD',
        interval: 'every_30_days',
        trialDays: 0,
        returnUrl: `${PUBLIC_URL}${RETURN_PATH}?checkout=${row.id}`,
        test: true,
      });
      const missing = await as(t).post(path, { teamId: t.teamId, planId: 'starter' }).expect(422);
      expect(missing.body.violations[0].propertyPath).toBe('returnUrl');
    });

    it('records nothing when the storefront app is down', async () => {
      const t = await createTenant(app);
      await linkShop(t);
      storefront.down = true;
      try {
        const res = await as(t)
          .post('/billing/storefront/checkout_subscription', {
            teamId: t.teamId,
            planId: 'pro',
            returnUrl: CLIENT_RETURN,
          })
          .expect(502);
        expect(res.body['hydra:description']).toBe(
          'The storefront app is unavailable; try again later.',
        );
      } finally {
        storefront.down = false;
      }
      expect(await billingState(t.teamId)).toEqual({ subscriptions: [], checkouts: [] });
    });
  });

  describe('return from the platform', () => {
    it('activates the plan once the merchant approved, and the plan’s limits apply', async () => {
      const { t, charge } = await checkout('starter');
      const before = await team(t);
      expect(before.subscription).toBeNull();
      expect(before.entitlements.workspaces.capacity).toBe(1);
      const second = { team: `/teams/${t.teamId}`, title: 'Second', defaultTrackingPage: null };
      await as(t).post('/workspaces', second).expect(422);

      // Back before deciding (or with the decision not yet recorded): pending, nothing changes.
      const early = await browser().get(storefront.returnPath(charge.id)).expect(302);
      expect(early.headers.location).toBe(`${CLIENT_RETURN}&subscription=pending`);
      expect(await billingState(t.teamId)).toMatchObject({ subscriptions: [] });

      const billingOn = daysFromNow(30);
      storefront.approve(charge.id, billingOn);
      const res = await browser().get(storefront.returnPath(charge.id)).expect(302);
      expect(res.headers.location).toBe(`${CLIENT_RETURN}&subscription=active`);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(storefront.calls).toContain(
        `GET /api/installations/${charge.tokenId}/recurring_charges/${charge.id}`,
      );

      const after = await team(t);
      expect(after.billingProvider).toBe('storefront');
      expect(after.subscription).toMatchObject({
        status: 'active',
        planId: 'starter',
        planName: 'Starter',
        cbId: charge.id,
        billingPeriod: 1,
        billingPeriodUnit: 'month',
        expiresAt: `${billingOn}T00:00:00+00:00`,
        unpaidInvoices: false,
      });
      expect(after.entitlements.workspaces.capacity).toBe(2);
      expect(after.entitlements.shipments.capacity).toBe(1000);
      await as(t).post('/workspaces', second).expect(201);
      const [done] = await db.query(
        `SELECT status, completed_at FROM billing_checkout WHERE external_id = $1`,
        [charge.id],
      );
      expect(done.status).toBe('active');
      expect(done.completed_at).not.toBeNull();
    });

    it('is idempotent: a replayed return says the same on a page and changes nothing', async () => {
      const { t, charge } = await checkout('pro');
      storefront.approve(charge.id);
      await browser().get(storefront.returnPath(charge.id)).expect(302);
      const state = await billingState(t.teamId);
      const calls = storefront.calls.length;
      // The browser went back once (test/security/billing-return.e2e-spec.ts): a page now.
      for (let i = 0; i < 2; i++) {
        const again = await browser().get(storefront.returnPath(charge.id)).expect(200);
        expect(again.headers.location).toBeUndefined();
        expect(again.text).toContain('The subscription is active.');
      }
      // Settled: not even a call to the storefront app.
      expect(storefront.calls.length).toBe(calls);
      expect(await billingState(t.teamId)).toEqual(state);
      expect((await team(t)).subscription).toMatchObject({ status: 'active', planId: 'pro' });
    });

    it('changes nothing when the merchant declined, and says so', async () => {
      const { t, charge } = await checkout('pro');
      storefront.decline(charge.id);
      const res = await browser().get(storefront.returnPath(charge.id)).expect(302);
      expect(res.headers.location).toBe(`${CLIENT_RETURN}&subscription=declined`);
      const after = await team(t);
      expect(after.subscription).toBeNull();
      expect(after.billingProvider).toBe('billing_provider');
      expect(after.entitlements.workspaces.capacity).toBe(1);
      const [row] = await db.query(`SELECT status FROM billing_checkout WHERE external_id = $1`, [
        charge.id,
      ]);
      expect(row.status).toBe('declined');
      // The same again (settled), whatever the app says now.
      storefront.approve(charge.id);
      const again = await browser().get(storefront.returnPath(charge.id)).expect(200);
      expect(again.text).toContain('The subscription is declined.');
      expect((await team(t)).subscription).toBeNull();
    });

    it('refuses forged, foreign and unknown charges and checkouts with a page; nothing changes', async () => {
      const a = await checkout('starter');
      const b = await checkout('business');
      storefront.approve(a.charge.id);
      storefront.approve(b.charge.id);
      const stateA = await billingState(a.t.teamId);
      const stateB = await billingState(b.t.teamId);
      const checkoutOf = (charge: FakeCharge) =>
        new URL(String(charge.request.returnUrl)).searchParams.get('checkout')!;
      const cases: Array<[string, number]> = [
        // Team A's checkout with team B's (approved) charge, and with a made-up one.
        [storefront.returnPath(a.charge.id, b.charge.id), 404],
        [storefront.returnPath(a.charge.id, 'charge_forged'), 404],
        [`${RETURN_PATH}?checkout=${randomUUID()}&charge_id=${a.charge.id}`, 404],
        [`${RETURN_PATH}?checkout=not-a-uuid&charge_id=${a.charge.id}`, 404],
        [`${RETURN_PATH}?checkout=${checkoutOf(a.charge)}`, 400],
        [`${RETURN_PATH}?charge_id=${a.charge.id}`, 400],
        [`${RETURN_PATH}?checkout[]=${checkoutOf(a.charge)}&charge_id=${a.charge.id}`, 400],
        [RETURN_PATH, 400],
      ];
      for (const [path, status] of cases) {
        const res = await browser().get(path).expect(status);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers.location).toBeUndefined();
      }
      const page = await browser().get(storefront.returnPath(a.charge.id, b.charge.id));
      expect(page.text).toContain('No subscription checkout matches this charge.');
      expect(await billingState(a.t.teamId)).toEqual(stateA);
      expect(await billingState(b.t.teamId)).toEqual(stateB);
      // Nothing was spent: each team's own return still works.
      const own = await browser().get(storefront.returnPath(b.charge.id)).expect(302);
      expect(outcomeOf(own.headers.location)).toBe('active');
      expect((await team(b.t)).subscription).toMatchObject({ planId: 'business' });
      expect((await team(a.t)).subscription).toBeNull();
    });

    it('answers a 502 page while the storefront app is down, writes nothing, and works once it is back', async () => {
      const { t, charge } = await checkout('starter');
      storefront.approve(charge.id);
      const state = await billingState(t.teamId);
      storefront.down = true;
      try {
        const res = await browser().get(storefront.returnPath(charge.id)).expect(502);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).toContain('Reload this page in a moment to try again.');
      } finally {
        storefront.down = false;
      }
      expect(await billingState(t.teamId)).toEqual(state);
      const back = await browser().get(storefront.returnPath(charge.id)).expect(302);
      expect(outcomeOf(back.headers.location)).toBe('active');
    });
  });

  describe('webhook', () => {
    async function activated(planId = 'starter') {
      const made = await checkout(planId);
      storefront.approve(made.charge.id);
      await browser().get(storefront.returnPath(made.charge.id)).expect(302);
      return made;
    }

    it('refuses a bad signature and changes nothing', async () => {
      const { t, charge } = await activated();
      storefront.setStatus(charge.id, 'cancelled');
      const state = await billingState(t.teamId);
      const wrongSecret = storefront.webhook(charge.id, { secret: 'not-the-secret' });
      const signed = storefront.webhook(charge.id);
      const tampered = { ...signed, raw: signed.raw.replace('cancelled', 'active') };
      const hex = {
        ...signed,
        signature: `sha256=${Buffer.from(signed.signature, 'base64').toString('hex')}`,
      };
      for (const body of [wrongSecret, tampered, hex, { ...signed, signature: '' }]) {
        const res = await sendWebhook(body).expect(403);
        expect(res.body['hydra:description']).toBe('Invalid or missing webhook signature.');
      }
      await sendWebhook(signed, 'X-Billing-Signature').expect(403);
      expect(await billingState(t.teamId)).toEqual(state);
      const events = await db.query(
        `SELECT 1 FROM billing_webhook_event WHERE event_id IN ($1, $2)`,
        [wrongSecret.eventId, signed.eventId],
      );
      expect(events).toEqual([]);
    });

    it('cancels the subscription, once per event, and ignores older events', async () => {
      const { t, charge } = await activated();
      storefront.setStatus(charge.id, 'cancelled');
      const now = new Date();
      const cancel = storefront.webhook(charge.id, { occurredAt: now });
      const res = await sendWebhook(cancel).expect(202);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ eventId: cancel.eventId, outcome: 'applied' });
      const after = await team(t);
      expect(after.subscription).toMatchObject({ status: 'cancelled', planId: 'starter' });
      expect(after.entitlements.workspaces.capacity).toBe(1);

      const replay = await sendWebhook(cancel).expect(202);
      expect(replay.body).toEqual({ eventId: cancel.eventId, outcome: 'duplicate' });

      storefront.setStatus(charge.id, 'active');
      const older = storefront.webhook(charge.id, { occurredAt: new Date(now.getTime() - 60_000) });
      const stale = await sendWebhook(older).expect(202);
      expect(stale.body).toEqual({ eventId: older.eventId, outcome: 'stale' });
      expect((await team(t)).subscription.status).toBe('cancelled');

      const [row] = await db.query(
        `SELECT provider, outcome, team_id, event_type FROM billing_webhook_event WHERE event_id = $1`,
        [cancel.eventId],
      );
      expect(row).toEqual({
        provider: 'storefront',
        outcome: 'applied',
        team_id: t.teamId,
        event_type: 'recurring_charges/update',
      });
    });

    it('puts a frozen charge past due, and active again when it thaws', async () => {
      const { t, charge } = await activated('pro');
      storefront.setStatus(charge.id, 'frozen');
      const t1 = new Date(Date.now() - 1000);
      expect(
        (await sendWebhook(storefront.webhook(charge.id, { occurredAt: t1 })).expect(202)).body
          .outcome,
      ).toBe('applied');
      expect((await team(t)).subscription).toMatchObject({
        status: 'past_due',
        planId: 'pro',
        unpaidInvoices: true,
      });
      // Past due still grants the plan.
      expect((await team(t)).entitlements.workspaces.capacity).toBe(10);
      const billingOn = daysFromNow(60);
      storefront.setStatus(charge.id, 'active', { billingOn });
      await sendWebhook(storefront.webhook(charge.id)).expect(202);
      expect((await team(t)).subscription).toMatchObject({
        status: 'active',
        unpaidInvoices: false,
        expiresAt: `${billingOn}T00:00:00+00:00`,
      });
    });

    it('activates an approved charge whose merchant never came back', async () => {
      const { t, charge } = await checkout('business');
      storefront.approve(charge.id);
      const res = await sendWebhook(storefront.webhook(charge.id)).expect(202);
      expect(res.body.outcome).toBe('applied');
      expect((await team(t)).subscription).toMatchObject({
        status: 'active',
        planId: 'business',
        cbId: charge.id,
      });
      // A later return finds it settled.
      const calls = storefront.calls.length;
      const back = await browser().get(storefront.returnPath(charge.id)).expect(302);
      expect(outcomeOf(back.headers.location)).toBe('active');
      expect(storefront.calls.length).toBe(calls);
    });

    it('leaves the subscription alone for events of a charge the team replaced', async () => {
      const { t, charge: first } = await activated('starter');
      const { charge: second } = await checkout('pro', t);
      storefront.approve(second.id);
      await browser().get(storefront.returnPath(second.id)).expect(302);
      expect((await team(t)).subscription).toMatchObject({ planId: 'pro', cbId: second.id });
      // The platform cancels the replaced charge.
      storefront.setStatus(first.id, 'cancelled');
      const res = await sendWebhook(storefront.webhook(first.id)).expect(202);
      expect(res.body.outcome).toBe('ignored');
      expect((await team(t)).subscription).toMatchObject({
        status: 'active',
        planId: 'pro',
        cbId: second.id,
      });
    });

    it('records unknown charges and events without a charge; 422 without an id', async () => {
      const tokenId = `inst-orphan-${process.pid}`;
      storefront.charges.push({
        id: `charge_orphan_${randomUUID()}`,
        tokenId,
        request: { name: 'Other', price: '1.00', currency: 'USD', interval: 'every_30_days' },
        status: 'active',
        billingOn: null,
        trialEndsOn: null,
      });
      const orphan = storefront.webhook(storefront.last().id);
      expect((await sendWebhook(orphan).expect(202)).body).toEqual({
        eventId: orphan.eventId,
        outcome: 'unknown_charge',
      });
      const sign = (event: unknown) => {
        const raw = JSON.stringify(event);
        return {
          raw,
          signature: createHmac('sha256', WEBHOOK_SECRET).update(raw).digest('base64'),
        };
      };
      const noCharge = sign({ id: `evt_${randomUUID()}`, topic: 'app/uninstalled' });
      expect((await sendWebhook(noCharge).expect(202)).body.outcome).toBe('ignored');
      const noId = await sendWebhook(sign({ topic: 'recurring_charges/update' })).expect(422);
      expect(noId.body.violations[0].propertyPath).toBe('id');
    });
  });
});

describe('storefront billing without a webhook secret or a storefront app', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    for (const name of [
      'STOREFRONT_APP_URL',
      'STOREFRONT_APP_API_KEY',
      'STOREFRONT_APP_WEBHOOK_SECRET',
    ])
      delete process.env[name];
    app = await createTestApp();
  });
  afterAll(() => closeTestApp(app));

  it('refuses every storefront webhook', async () => {
    const raw = JSON.stringify({ id: 'evt_x', topic: 'recurring_charges/update' });
    for (const signature of ['', createHmac('sha256', '').update(raw).digest('base64')])
      await request(app.getHttpServer())
        .post('/billing/storefront/webhook')
        .set('Content-Type', 'application/json')
        .set('X-Storefront-Hmac-Sha256', signature)
        .send(raw)
        .expect(403);
  });

  it('answers a pending checkout’s return with a 503 page', async () => {
    const t = await createTenant(app);
    const db = app.get(DataSource);
    const [row] = await db.query(
      `INSERT INTO billing_checkout (team_id, provider, plan_id, external_id, return_url,
              installation, status)
       VALUES ($1, 'storefront', 'pro', $2, $3, 'inst-gone', 'pending') RETURNING id`,
      [t.teamId, `charge_${randomUUID()}`, CLIENT_RETURN],
    );
    const [checkout] = await db.query(`SELECT external_id FROM billing_checkout WHERE id = $1`, [
      row.id,
    ]);
    const res = await request(app.getHttpServer())
      .get(`${RETURN_PATH}?checkout=${row.id}&charge_id=${checkout.external_id}`)
      .expect(503);
    expect(res.text).toContain('No storefront app is configured on this server.');
  });
});
