import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { billingSignature } from '../src/billing/billing-webhooks';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { addWorkspace, createTenant, Tenant } from './factories/tenant.factory';
import { joinTeam } from './factories/identity.factory';

/**
 * Billing end to end: the real HTTP adapter of the billing provider talks to a local server
 * speaking the provider's REST protocol (Chargebee v2 style, form bodies, Basic auth); webhooks
 * are signed like the provider does. Storefront charges: billing-storefront.e2e-spec.ts.
 */

const API_KEY = 'test_billing_key';
const WEBHOOK_SECRET = 'whsec-billing-test';

interface Recorded {
  method: string;
  path: string;
  form: URLSearchParams;
  json: Record<string, unknown> | null;
  authorization: string | undefined;
}

/** A provider that answers every call of the adapter, and can be told to fail. */
class FakeBillingProvider {
  readonly calls: Recorded[] = [];
  failWith: number | null = null;
  private server!: Server;
  private seq = 0;

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  last(pathPart: string): Recorded {
    const found = [...this.calls].reverse().find((c) => c.path.includes(pathPart));
    if (!found) throw new Error(`no call to ${pathPart}`);
    return found;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const form = new URLSearchParams(text);
    this.calls.push({
      method: req.method!,
      path: req.url!,
      form,
      json: null,
      authorization: req.headers.authorization,
    });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const expectedAuth = `Basic ${Buffer.from(`${API_KEY}:`).toString('base64')}`;
    if (req.headers.authorization !== expectedAuth)
      return send(401, {
        message: 'api_key is invalid',
        api_error_code: 'api_authentication_failed',
      });
    if (this.failWith) return send(this.failWith, { message: 'Provider trouble' });
    const now = Math.floor(Date.now() / 1000);
    const id = `obj_${++this.seq}`;
    const path = req.url!;
    if (path.startsWith('/api/v2/hosted_pages/checkout_')) {
      return send(200, {
        hosted_page: {
          id,
          type: path.includes('existing') ? 'checkout_existing' : 'checkout_new',
          url: `https://acme.billing.test/pages/v3/${id}/`,
          state: 'created',
          embed: false,
          created_at: now,
          expires_at: now + 3600,
          updated_at: now,
          resource_version: now * 1000,
          object: 'hosted_page',
        },
      });
    }
    if (path === '/api/v2/portal_sessions') {
      const customer = form.get('customer[id]');
      return send(200, {
        portal_session: {
          id,
          token: `tok_${id}`,
          access_url: `https://acme.billing.test/portal/v2/access/${id}`,
          status: 'created',
          created_at: now,
          expires_at: now + 3600,
          object: 'portal_session',
          customer_id: customer,
        },
      });
    }
    const update = /^\/api\/v2\/subscriptions\/([^/]+)\/update_for_items$/.exec(path);
    if (update) {
      return send(200, {
        subscription: {
          id: decodeURIComponent(update[1]),
          customer_id: 'whoever',
          status: 'active',
          has_scheduled_changes: form.get('end_of_term') === 'true',
          subscription_items: [
            { item_price_id: 'pro-USD-Monthly', item_type: 'plan', quantity: 1 },
          ],
          current_term_end: now + 86400 * 20,
        },
      });
    }
    if (path.startsWith('/api/v2/estimates/')) {
      return send(200, {
        estimate: {
          created_at: now,
          object: 'estimate',
          subscription_estimate: { next_billing_at: now + 86400 * 30, currency_code: 'USD' },
          [path.includes('update') ? 'next_invoice_estimate' : 'invoice_estimate']: {
            total: 11700,
            currency_code: 'USD',
            line_items: [
              { description: 'Pro', entity_id: 'pro-USD-Monthly', quantity: 1, amount: 9900 },
              {
                description: 'Extra workspace',
                entity_id: 'extra-workspace-USD-Monthly',
                quantity: 2,
                amount: 1800,
              },
            ],
          },
        },
      });
    }
    send(404, { message: 'Sorry, we could not find that resource', api_error_code: 'not_found' });
  }
}

describe('billing', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  const provider = new FakeBillingProvider();
  let eventSeq = 0;

  beforeAll(async () => {
    const providerUrl = await provider.start();
    Object.assign(process.env, {
      BILLING_PROVIDER_URL: providerUrl,
      BILLING_PROVIDER_API_KEY: API_KEY,
      BILLING_WEBHOOK_SECRET: WEBHOOK_SECRET,
      BILLING_ENFORCE_ENTITLEMENTS: 'true',
    });
    app = await createTestApp();
    db = app.get(DataSource);
  });

  afterAll(async () => {
    await closeTestApp(app);
    await provider.stop();
  });

  const as = (t: Tenant | { token: string }) => api(app, { token: t.token });

  function sendWebhook(event: Record<string, unknown>, secret = WEBHOOK_SECRET) {
    const raw = JSON.stringify(event);
    return request(app.getHttpServer())
      .post('/billing/billing_provider/webhook')
      .set('Content-Type', 'application/json')
      .set('X-Billing-Signature', billingSignature(secret, raw))
      .send(raw);
  }

  function subscriptionEvent(
    teamId: string,
    overrides: Record<string, unknown> = {},
    eventType = 'subscription_created',
    occurredAt = Math.floor(Date.now() / 1000),
  ) {
    return {
      id: `ev_${process.pid}_${++eventSeq}`,
      occurred_at: occurredAt,
      source: 'hosted_page',
      object: 'event',
      api_version: 'v2',
      event_type: eventType,
      webhook_status: 'not_configured',
      content: {
        subscription: {
          id: `sub_${teamId.slice(0, 8)}`,
          customer_id: teamId,
          status: 'active',
          billing_period: 1,
          billing_period_unit: 'month',
          current_term_end: occurredAt + 86400 * 30,
          due_invoices_count: 0,
          has_scheduled_changes: false,
          subscription_items: [
            { item_price_id: 'pro-USD-Monthly', item_type: 'plan', quantity: 1 },
            { item_price_id: 'extra-workspace-USD-Monthly', item_type: 'addon', quantity: 2 },
          ],
          ...overrides,
        },
        customer: { id: teamId },
      },
    };
  }

  describe('team billing fields', () => {
    it('shows the free plan, no subscription and the use of each entitlement', async () => {
      const t = await createTenant(app);
      const res = await as(t).get(`/teams/${t.teamId}`).expect(200);
      expect(res.body.subscription).toBeNull();
      expect(res.body.billingProvider).toBe('billing_provider');
      expect(res.body.entitlements).toEqual({
        shipments: {
          capacity: 100,
          used: 0,
          limitReached: false,
          limitExceeded: false,
          display: 'shipment per month',
          displayPlural: 'shipments per month',
        },
        workspaces: {
          capacity: 1,
          used: 1,
          limitReached: true,
          limitExceeded: false,
          display: 'workspace',
          displayPlural: 'workspaces',
        },
        users: {
          capacity: 2,
          used: 1,
          limitReached: false,
          limitExceeded: false,
          display: 'user',
          displayPlural: 'users',
        },
      });
      const list = await api(app, { token: t.token }).json().get('/teams').expect(200);
      expect(list.body[0].entitlements.workspaces.used).toBe(1);
    });
  });

  describe('entitlements on writes', () => {
    it('refuses a workspace beyond the plan with a 422 naming the limit', async () => {
      const t = await createTenant(app);
      const res = await as(t)
        .post('/workspaces', {
          team: `/teams/${t.teamId}`,
          title: 'Second',
          defaultTrackingPage: null,
        })
        .expect(422);
      expect(res.body.violations).toEqual([
        {
          propertyPath: 'team',
          message: "The team's plan allows 1 workspace; 1 is in use. Upgrade the plan to add more.",
          code: 'entitlement_limit_reached',
        },
      ]);
      expect(res.body['hydra:description']).toContain('Upgrade the plan');
      // A workspace of a new team (created by the same request) is the new team's first.
      await as(t)
        .post('/workspaces', {
          team: { name: 'Brand new team' },
          title: 'First',
          defaultTrackingPage: null,
        })
        .expect(201);
    });

    it('lets only one of two concurrent creations take the last workspace', async () => {
      const t = await createTenant(app);
      await db.query(`DELETE FROM workspace WHERE id = $1`, [t.workspaceId]);
      const body = (title: string) => ({
        team: `/teams/${t.teamId}`,
        title,
        defaultTrackingPage: null,
      });
      const answers = await Promise.all([
        as(t).post('/workspaces', body('One')),
        as(t).post('/workspaces', body('Two')),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 422]);
      const [row] = await db.query(`SELECT count(*)::int AS n FROM workspace WHERE team_id = $1`, [
        t.teamId,
      ]);
      expect(row.n).toBe(1);
    });

    it('counts seats (members and invitations) and refuses an invitation beyond the plan', async () => {
      const t = await createTenant(app);
      const invite = (name: string) =>
        as(t).post('/team_members', {
          team: `/teams/${t.teamId}`,
          invitedEmail: `${name}-${t.userId}@example.test`,
        });
      await invite('a').expect(201);
      const refused = await invite('b').expect(422);
      expect(refused.body.violations[0]).toMatchObject({ propertyPath: 'team' });
      const team = await as(t).get(`/teams/${t.teamId}`).expect(200);
      expect(team.body.entitlements.users).toMatchObject({
        capacity: 2,
        used: 2,
        limitReached: true,
        limitExceeded: false,
      });
      const [pending] = await db.query(
        `SELECT count(*)::int AS n FROM team_member WHERE team_id = $1 AND member_id IS NULL`,
        [t.teamId],
      );
      expect(pending.n).toBe(1);
    });

    it('refuses shipments beyond the monthly volume; last month does not count', async () => {
      const t = await createTenant(app);
      await db.query(
        `INSERT INTO shipment (workspace_id, tracking_number, created_at)
         SELECT $1, 'OLD' || g, now() - interval '40 days' FROM generate_series(1, 5) g`,
        [t.workspaceId],
      );
      await db.query(
        `INSERT INTO shipment (workspace_id, tracking_number)
         SELECT $1, 'BULK' || g FROM generate_series(1, 99) g`,
        [t.workspaceId],
      );
      await as(t)
        .post('/shipments', { workspace: `/workspaces/${t.workspaceId}` })
        .expect(201);
      const res = await as(t)
        .post('/shipments', { workspace: `/workspaces/${t.workspaceId}` })
        .expect(422);
      expect(res.body.violations[0]).toMatchObject({
        propertyPath: 'workspace',
        code: 'entitlement_limit_reached',
      });
      expect(res.body.violations[0].message).toContain('100 shipments per month; 100 are in use');
    });

    it('keeps the monthly volume exact under concurrent creates and deletes', async () => {
      const t = await createTenant(app);
      const second = await addWorkspace(app, t);
      const [bulk] = await db.query(
        `WITH s AS (INSERT INTO shipment (workspace_id, tracking_number)
           SELECT $1, 'BULK' || g FROM generate_series(1, 60) g RETURNING id)
         SELECT array_agg(id) AS ids FROM s`,
        [t.workspaceId],
      );
      const create = (i: number) =>
        as(t).post('/shipments', {
          workspace: `/workspaces/${i % 2 ? second : t.workspaceId}`,
          trackingNumber: `TM102CONC${i}TM`,
        });
      const monthly = async () => {
        const [row] = await db.query(
          `SELECT count(*)::int AS n FROM shipment s JOIN workspace w ON w.id = s.workspace_id
            WHERE w.team_id = $1 AND s.created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
          [t.teamId],
        );
        const team = await as(t).get(`/teams/${t.teamId}`).expect(200);
        return { counted: row.n as number, shown: team.body.entitlements.shipments };
      };

      // Below the limit: every write goes through, and the count follows each of them.
      const answers = await Promise.all([
        ...Array.from({ length: 30 }, (_, i) => create(i)),
        ...(bulk.ids as string[]).slice(0, 10).map((id) => as(t).delete(`/shipments/${id}`)),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([
        ...Array(30).fill(201),
        ...Array(10).fill(204),
      ]);
      expect(await monthly()).toEqual({
        counted: 80,
        shown: expect.objectContaining({ capacity: 100, used: 80 }),
      });

      // At the limit: exactly what was left is admitted (near the limit a team's creates take
      // turns), every refusal names the limit, and the count is the shipments there are.
      const racing = await Promise.all(Array.from({ length: 30 }, (_, i) => create(100 + i)));
      const admitted = racing.filter((r) => r.status === 201).length;
      expect(admitted).toBe(20);
      for (const refused of racing.filter((r) => r.status !== 201)) {
        expect(refused.status).toBe(422);
        expect(refused.body.violations[0].code).toBe('entitlement_limit_reached');
      }
      const after = await monthly();
      expect(after.counted).toBe(80 + admitted);
      expect(after.shown).toMatchObject({
        used: 100,
        limitReached: true,
        limitExceeded: false,
      });
      await create(200).expect(422);
    });
  });

  describe('POST /billing/subscribe_to_trial', () => {
    it('starts one 14-day Pro trial per user and lifts the limits', async () => {
      const t = await createTenant(app);
      const res = await as(t)
        .post('/billing/subscribe_to_trial', { teamId: `/teams/${t.teamId}` })
        .expect(200);
      expect(res.body['@id']).toBe(`/teams/${t.teamId}`);
      expect(res.body.subscription).toMatchObject({
        '@id': `/teams/${t.teamId}#subscription`,
        '@type': 'Subscription',
        status: 'trialing',
        planId: 'pro',
        planName: 'Pro',
        planType: 'paid',
        cbId: null,
        hasScheduledChanges: false,
      });
      const days = (Date.parse(res.body.subscription.expiresAt) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(13.9);
      expect(days).toBeLessThan(14.1);
      expect(res.body.entitlements.workspaces).toMatchObject({ capacity: 10, used: 1 });
      const user = await as(t).get(`/users/${t.userId}`).expect(200);
      expect(user.body.trialRedeemed).toBe(true);
      await as(t)
        .post('/workspaces', {
          team: `/teams/${t.teamId}`,
          title: 'Second',
          defaultTrackingPage: null,
        })
        .expect(201);

      // The same user's other team gets no second trial.
      const [other] = await db.query(`INSERT INTO team (name) VALUES ('Other') RETURNING id`);
      await db.query(
        `INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, 'owner')`,
        [other.id, t.userId],
      );
      const again = await as(t)
        .post('/billing/subscribe_to_trial', { teamId: other.id })
        .expect(422);
      expect(again.body.violations[0]).toMatchObject({
        propertyPath: 'trialRedeemed',
        message: 'You have already redeemed your free trial.',
      });
    });

    it('gives a team one trial, and none while it has a subscription', async () => {
      const t = await createTenant(app);
      const admin = await joinTeam(app, t, 'admin');
      await as(t).post('/billing/subscribe_to_trial', { teamId: t.teamId }).expect(200);
      const res = await as(admin)
        .post('/billing/subscribe_to_trial', { teamId: t.teamId })
        .expect(422);
      expect(res.body.violations[0].message).toBe(
        'This team already has a subscription (Pro, trialing).',
      );
      // Once the trial is over the team is back on the free plan, and still had its trial.
      await db.query(
        `UPDATE subscription SET expires_at = now() - interval '1 minute' WHERE team_id = $1`,
        [t.teamId],
      );
      const team = await as(t).get(`/teams/${t.teamId}`).expect(200);
      expect(team.body.subscription.status).toBe('cancelled');
      expect(team.body.entitlements.workspaces.capacity).toBe(1);
      const later = await as(admin)
        .post('/billing/subscribe_to_trial', { teamId: t.teamId })
        .expect(422);
      expect(later.body.violations[0].message).toBe('This team has already had a free trial.');
    });

    it('is for owners and admins of a visible team', async () => {
      const t = await createTenant(app);
      const stranger = await createTenant(app);
      const member = await joinTeam(app, t, 'member');
      await as(member).post('/billing/subscribe_to_trial', { teamId: t.teamId }).expect(403);
      await as(stranger).post('/billing/subscribe_to_trial', { teamId: t.teamId }).expect(404);
      await as(stranger).post('/billing/subscribe_to_trial', { teamId: 'not-a-team' }).expect(404);
      const blank = await as(t).post('/billing/subscribe_to_trial', {}).expect(422);
      expect(blank.body.violations[0]).toMatchObject({
        propertyPath: 'teamId',
        message: 'This value should not be blank.',
      });
      const typed = await as(t).post('/billing/subscribe_to_trial', { teamId: 42 }).expect(400);
      expect(typed.body['hydra:description']).toContain('"teamId" attribute must be "string"');
      await request(app.getHttpServer()).post('/billing/subscribe_to_trial').send({}).expect(401);
    });
  });

  describe('hosted checkout at the billing provider', () => {
    it('creates a checkout page for a new subscription with the team as customer', async () => {
      const t = await createTenant(app);
      const res = await as(t)
        .post('/billing/billing_provider/created_hosted_page_checkout', {
          intent: 'new',
          teamId: t.teamId,
          planId: 'pro',
          addonsQtyByKey: { extra_workspace: 2 },
          redirectUrl: 'https://app.example.test/billing/done',
        })
        .expect(201);
      expect(res.body).toMatchObject({
        '@type': 'BillingProviderHostedPage',
        type: 'checkout_new',
        state: 'created',
        embed: false,
        object: 'hosted_page',
      });
      expect(res.body.url).toMatch(/^https:\/\/acme\.billing\.test\/pages\/v3\//);
      const call = provider.last('checkout_new_for_items');
      expect(call.authorization).toBe(`Basic ${Buffer.from(`${API_KEY}:`).toString('base64')}`);
      expect(Object.fromEntries(call.form)).toEqual({
        'subscription_items[item_price_id][0]': 'pro-USD-Monthly',
        'subscription_items[quantity][0]': '1',
        'subscription_items[item_price_id][1]': 'extra-workspace-USD-Monthly',
        'subscription_items[quantity][1]': '2',
        'customer[id]': t.teamId,
        'customer[email]': t.email,
        redirect_url: 'https://app.example.test/billing/done',
      });
      const [checkout] = await db.query(`SELECT * FROM billing_checkout WHERE team_id = $1`, [
        t.teamId,
      ]);
      expect(checkout).toMatchObject({
        plan_id: 'pro',
        provider: 'billing_provider',
        user_id: t.userId,
      });
    });

    it('refuses unknown plans, the free plan, unknown add-ons and bad URLs', async () => {
      const t = await createTenant(app);
      const path = '/billing/billing_provider/created_hosted_page_checkout';
      const unknown = await as(t).post(path, { teamId: t.teamId, planId: 'gold' }).expect(422);
      expect(unknown.body.violations[0]).toMatchObject({
        propertyPath: 'planId',
        message: 'The plan "gold" is not available. Choose one of: starter, pro, business.',
      });
      await as(t).post(path, { teamId: t.teamId, planId: 'free' }).expect(422);
      const addon = await as(t)
        .post(path, { teamId: t.teamId, planId: 'pro', addonsQtyByKey: { gold_star: 1 } })
        .expect(422);
      expect(addon.body.violations[0].propertyPath).toBe('addonsQtyByKey.gold_star');
      await as(t)
        .post(path, { teamId: t.teamId, planId: 'pro', addonsQtyByKey: { extra_user: 'two' } })
        .expect(400);
      await as(t)
        .post(path, { teamId: t.teamId, planId: 'pro', addonsQtyByKey: [1] })
        .expect(400);
      const url = await as(t)
        .post(path, { teamId: t.teamId, planId: 'pro', redirectUrl: 'javascript:alert(1)' })
        .expect(422);
      expect(url.body.violations[0]).toMatchObject({
        propertyPath: 'redirectUrl',
        message: 'This value is not a valid URL.',
      });
    });

    it('answers 502 when the provider fails and 422 when it refuses', async () => {
      const t = await createTenant(app);
      const path = '/billing/billing_provider/created_hosted_page_checkout';
      provider.failWith = 503;
      try {
        const res = await as(t).post(path, { teamId: t.teamId, planId: 'pro' }).expect(502);
        expect(res.body['hydra:description']).toBe(
          'The billing provider is unavailable; try again later.',
        );
        provider.failWith = 400;
        const refused = await as(t).post(path, { teamId: t.teamId, planId: 'pro' }).expect(422);
        expect(refused.body['hydra:description']).toBe(
          'The billing provider refused the request: Provider trouble',
        );
      } finally {
        provider.failWith = null;
      }
    });
  });

  describe('the provider webhook', () => {
    it('applies a signed subscription event to the customer team, once', async () => {
      const t = await createTenant(app);
      const event = subscriptionEvent(t.teamId);
      const res = await sendWebhook(event).expect(202);
      expect(res.body).toEqual({ eventId: event.id, outcome: 'applied' });
      const team = await as(t).get(`/teams/${t.teamId}`).expect(200);
      expect(team.body.subscription).toMatchObject({
        cbId: `sub_${t.teamId.slice(0, 8)}`,
        status: 'active',
        planId: 'pro',
        addonsQtyByKey: { extra_workspace: 2 },
        billingPeriod: 1,
        billingPeriodUnit: 'month',
        unpaidInvoices: false,
      });
      expect(Date.parse(team.body.subscription.expiresAt)).toBe(
        (event.occurred_at + 86400 * 30) * 1000,
      );
      expect(team.body.entitlements.workspaces.capacity).toBe(12);

      // The provider retries: same id, nothing changes (not even after a local edit).
      await db.query(`UPDATE subscription SET plan_name = 'Edited' WHERE team_id = $1`, [t.teamId]);
      const replay = await sendWebhook(event).expect(202);
      expect(replay.body.outcome).toBe('duplicate');
      const [row] = await db.query(`SELECT plan_name FROM subscription WHERE team_id = $1`, [
        t.teamId,
      ]);
      expect(row.plan_name).toBe('Edited');
    });

    it('marks unpaid subscriptions past due and ignores events older than the last applied', async () => {
      const t = await createTenant(app);
      const start = Math.floor(Date.now() / 1000) - 1000;
      await sendWebhook(subscriptionEvent(t.teamId, {}, 'subscription_created', start)).expect(202);
      const failed = await sendWebhook(
        subscriptionEvent(t.teamId, { due_invoices_count: 1 }, 'payment_failed', start + 100),
      ).expect(202);
      expect(failed.body.outcome).toBe('applied');
      let team = await as(t).get(`/teams/${t.teamId}`).expect(200);
      expect(team.body.subscription).toMatchObject({ status: 'past_due', unpaidInvoices: true });
      // Past due still grants the plan while the provider retries the payment.
      expect(team.body.entitlements.workspaces.capacity).toBe(12);

      const stale = await sendWebhook(
        subscriptionEvent(t.teamId, { status: 'cancelled' }, 'subscription_cancelled', start + 50),
      ).expect(202);
      expect(stale.body.outcome).toBe('stale');
      const cancelled = await sendWebhook(
        subscriptionEvent(t.teamId, { status: 'cancelled' }, 'subscription_cancelled', start + 200),
      ).expect(202);
      expect(cancelled.body.outcome).toBe('applied');
      team = await as(t).get(`/teams/${t.teamId}`).expect(200);
      expect(team.body.subscription.status).toBe('cancelled');
      expect(team.body.entitlements.workspaces.capacity).toBe(1);
    });

    it('records events it cannot apply', async () => {
      const t = await createTenant(app);
      const unknownTeam = subscriptionEvent('00000000-0000-4000-8000-000000000000');
      expect((await sendWebhook(unknownTeam).expect(202)).body.outcome).toBe('unknown_team');
      const unknownPlan = subscriptionEvent(t.teamId, {
        subscription_items: [{ item_price_id: 'legacy-plan', item_type: 'plan', quantity: 1 }],
      });
      expect((await sendWebhook(unknownPlan).expect(202)).body.outcome).toBe('unknown_plan');
      const other = { id: `ev_other_${t.teamId}`, event_type: 'customer_changed', content: {} };
      expect((await sendWebhook(other).expect(202)).body.outcome).toBe('ignored');
      const [row] = await db.query(
        `SELECT outcome FROM billing_webhook_event WHERE event_id = $1`,
        [unknownPlan.id],
      );
      expect(row.outcome).toBe('unknown_plan');
    });

    it('refuses unsigned, wrongly signed and malformed events', async () => {
      const t = await createTenant(app);
      const event = subscriptionEvent(t.teamId);
      await request(app.getHttpServer())
        .post('/billing/billing_provider/webhook')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(event))
        .expect(403);
      const wrong = await sendWebhook(event, 'another-secret').expect(403);
      expect(wrong.body['hydra:description']).toBe('Invalid or missing webhook signature.');
      // A signature over other bytes than those sent (re-serialised JSON) does not match.
      const raw = JSON.stringify(event, null, 2);
      await request(app.getHttpServer())
        .post('/billing/billing_provider/webhook')
        .set('Content-Type', 'application/json')
        .set('X-Billing-Signature', billingSignature(WEBHOOK_SECRET, JSON.stringify(event)))
        .send(raw)
        .expect(403);
      const noId = await sendWebhook({ event_type: 'subscription_created' }).expect(422);
      expect(noId.body.violations[0].propertyPath).toBe('id');
      const [team] = await db.query(`SELECT 1 FROM subscription WHERE team_id = $1`, [t.teamId]);
      expect(team).toBeUndefined();
    });
  });

  describe('portal session, estimate and downgrade', () => {
    it('opens the portal only for a team with a billing account', async () => {
      const t = await createTenant(app);
      const path = '/billing/billing_provider/create_session';
      const none = await as(t).post(path, { teamId: t.teamId }).expect(422);
      expect(none.body.violations[0].message).toBe(
        'This team has no billing account yet: subscribe to a plan first.',
      );
      await sendWebhook(subscriptionEvent(t.teamId)).expect(202);
      const res = await as(t)
        .post(path, { teamId: t.teamId, redirectUrl: 'https://app.example.test/settings' })
        .expect(201);
      expect(res.body).toMatchObject({
        '@type': 'BillingProviderSession',
        status: 'created',
        object: 'portal_session',
        customer_id: t.teamId,
      });
      expect(res.body.access_url).toMatch(/^https:\/\/acme\.billing\.test\/portal\//);
      expect(res.body.token).toMatch(/^tok_/);
      expect(provider.last('portal_sessions').form.get('redirect_url')).toBe(
        'https://app.example.test/settings',
      );
    });

    it('estimates a new subscription and a change of a live one', async () => {
      const t = await createTenant(app);
      const path = '/billing/billing_provider/get_subscription_estimate';
      const fresh = await api(app, { token: t.token })
        .json()
        .post(path, { teamId: t.teamId, planId: 'pro', addonsQtyByKey: { extra_workspace: 2 } })
        .expect(201);
      expect(fresh.body).toMatchObject({
        nextTotal: 11700,
        currencyCode: 'USD',
        estimateItems: [
          { description: 'Pro', entityId: 'pro-USD-Monthly', quantity: 1, amount: 9900 },
          {
            description: 'Extra workspace',
            entityId: 'extra-workspace-USD-Monthly',
            quantity: 2,
            amount: 1800,
          },
        ],
      });
      expect(Date.parse(fresh.body.nextBillingAt)).toBeGreaterThan(Date.now());
      expect(provider.last('estimates/').path).toBe(
        '/api/v2/estimates/create_subscription_for_items',
      );
      expect(provider.last('estimates/').form.get('customer[id]')).toBe(t.teamId);

      await sendWebhook(subscriptionEvent(t.teamId)).expect(202);
      await as(t).post(path, { teamId: t.teamId, planId: 'business' }).expect(201);
      const call = provider.last('estimates/');
      expect(call.path).toBe('/api/v2/estimates/update_subscription_for_items');
      expect(call.form.get('subscription[id]')).toBe(`sub_${t.teamId.slice(0, 8)}`);
      expect(call.form.get('subscription_items[item_price_id][0]')).toBe('business-USD-Monthly');
    });

    it('schedules a downgrade at the end of the term when the team fits the smaller plan', async () => {
      const t = await createTenant(app);
      const path = '/billing/billing_provider/downgrade_subscription';
      const none = await as(t).post(path, { teamId: t.teamId, planId: 'starter' }).expect(422);
      expect(none.body.violations[0].message).toBe(
        'This team has no paid subscription to downgrade.',
      );
      await sendWebhook(subscriptionEvent(t.teamId)).expect(202);
      const up = await as(t).post(path, { teamId: t.teamId, planId: 'business' }).expect(422);
      expect(up.body.violations[0].message).toBe(
        'The Business plan is not smaller than the current Pro plan; use a checkout to upgrade.',
      );
      await addWorkspace(app, t, 'Two');
      await addWorkspace(app, t, 'Three');
      const crowded = await as(t).post(path, { teamId: t.teamId, planId: 'starter' }).expect(422);
      expect(crowded.body.violations[0].message).toBe(
        'The Starter plan allows 2 workspaces; the team has 3. Remove some first.',
      );
      await db.query(`DELETE FROM workspace WHERE team_id = $1 AND title = 'Three'`, [t.teamId]);
      const res = await as(t).post(path, { teamId: t.teamId, planId: 'starter' }).expect(200);
      expect(res.body.subscription).toMatchObject({
        planId: 'pro',
        hasScheduledChanges: true,
        scheduledPlanId: 'starter',
      });
      const call = provider.last('update_for_items');
      expect(call.path).toBe(`/api/v2/subscriptions/sub_${t.teamId.slice(0, 8)}/update_for_items`);
      expect(call.form.get('end_of_term')).toBe('true');
      expect(call.form.get('subscription_items[item_price_id][0]')).toBe('starter-USD-Monthly');
      expect(call.form.get('subscription_items[item_price_id][1]')).toBe(
        'extra-workspace-USD-Monthly',
      );
    });
  });
});

describe('billing without a configured provider', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    for (const name of [
      'BILLING_PROVIDER_URL',
      'BILLING_PROVIDER_API_KEY',
      'BILLING_WEBHOOK_SECRET',
      'BILLING_ENFORCE_ENTITLEMENTS',
    ])
      delete process.env[name];
    app = await createTestApp();
  });
  afterAll(() => closeTestApp(app));

  it('answers 503 to provider actions and refuses every webhook', async () => {
    const t = await createTenant(app);
    const res = await api(app, { token: t.token })
      .post('/billing/billing_provider/created_hosted_page_checkout', {
        teamId: t.teamId,
        planId: 'pro',
      })
      .expect(503);
    expect(res.body['hydra:description']).toBe('No billing provider is configured on this server.');
    const raw = JSON.stringify({ id: 'ev_x', event_type: 'subscription_created' });
    await request(app.getHttpServer())
      .post('/billing/billing_provider/webhook')
      .set('Content-Type', 'application/json')
      .set('X-Billing-Signature', billingSignature('', raw))
      .send(raw)
      .expect(403);
  });

  it('puts every team on the unlimited self-hosted plan', async () => {
    const t = await createTenant(app);
    const team = await api(app, { token: t.token }).get(`/teams/${t.teamId}`).expect(200);
    expect(team.body.entitlements.workspaces).toMatchObject({
      capacity: null,
      limitReached: false,
    });
    expect(team.body.subscription).toMatchObject({ status: 'active', planId: 'self_hosted' });
    await api(app, { token: t.token })
      .post('/workspaces', { team: `/teams/${t.teamId}`, title: 'Two', defaultTrackingPage: null })
      .expect(201);
  });
});
