import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { NotificationMailer } from '../src/email-notifications/notification-mailer';
import { EventDelivery } from '../src/events/event-delivery';
import { Clock } from '../src/tracking/clock';
import { testTrackingNumber } from './factories/commerce.factory';
import { Tenant, createTenant } from './factories/tenant.factory';
import { addTeamMemberByEmail } from './factories/identity.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { TestSmtp, startTestSmtp } from './support/smtp';

const SHOP_USER = 'acme-mailer';
const SHOP_PASSWORD = 'correct-horse-battery-staple';

/**
 * A workspace with emailSettings.smtpCredentials sends its e-mail notifications (and test
 * sends) through that SMTP server, as its fromEmail, authenticated with its user and
 * password; other workspaces through the global SMTP_URL as MAIL_FROM. Two real SMTP servers
 * (test/support/smtp.ts): the global one, and the workspace's, which requires AUTH.
 */
describe('workspace SMTP credentials', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let global: TestSmtp;
  let shop: TestSmtp;
  let tenant: Tenant;
  const saved = { ...process.env };

  beforeAll(async () => {
    global = await startTestSmtp();
    shop = await startTestSmtp({ auth: { user: SHOP_USER, pass: SHOP_PASSWORD } });
    process.env.SMTP_URL = global.url;
    process.env.MAIL_FROM = 'Tracking Platform <platform@example.test>';
    process.env.SMTP_ALLOWED_HOSTS = '127.0.0.1';
    process.env.EVENT_DELIVERY_MAX_ATTEMPTS = '3';
    app = await createTestApp();
    db = app.get(DataSource);
  });
  beforeEach(async () => {
    tenant = await createTenant(app, { workspaceTitle: 'Acme Store' });
    // Test e-mails go only to members of the team (test/security/send-test.e2e-spec.ts).
    for (const email of ['cache@acme.test', 'tester@acme.test'])
      await addTeamMemberByEmail(app, tenant, email);
    app.get(Clock).reset();
  });
  afterAll(async () => {
    await closeTestApp(app);
    await global.close();
    await shop.close();
    process.env = saved;
  });

  const http = (t: Tenant = tenant) => api(app, { token: t.token });
  const deliver = () => app.get(EventDelivery).runUntilIdle();

  async function smtpCredentials(
    t: Tenant = tenant,
    parameters: Record<string, unknown> = {},
    password = SHOP_PASSWORD,
  ): Promise<string> {
    const res = await http(t)
      .post('/credentials', {
        type: 'smtp',
        team: `/teams/${t.teamId}`,
        parameters: {
          host: '127.0.0.1',
          port: shop.port,
          secure: false,
          username: SHOP_USER,
          fromEmail: 'orders@acme.test',
          ...parameters,
        },
        secrets: { password },
      })
      .expect(201);
    return res.body['@id'];
  }
  function useSmtp(credentials: string | null, t: Tenant = tenant) {
    return http(t).put(`/workspaces/${t.workspaceId}`, {
      title: 'Acme Store',
      emailSettings: { smtpCredentials: credentials },
    });
  }
  async function notification(t: Tenant = tenant, extra: Record<string, unknown> = {}) {
    const res = await http(t)
      .post('/email_notifications', {
        workspace: `/workspaces/${t.workspaceId}`,
        event: 'shipment.delivered',
        subject: 'Parcel {{ trackingNumber }} delivered',
        body: '<p>Hi {{firstName}}</p>',
        ...extra,
      })
      .expect(201);
    return res.body as Record<string, any>;
  }
  async function shipment(
    t: Tenant = tenant,
    email: string | null = `buyer-${Date.now()}@example.com`,
  ) {
    const res = await http(t)
      .post('/shipments', {
        workspace: `/workspaces/${t.workspaceId}`,
        trackingNumber: testTrackingNumber('200'),
        email,
        address: { firstName: 'Dana' },
      })
      .expect(201);
    return res.body as Record<string, any>;
  }
  async function deliveryOf(shipmentId: string) {
    const [row] = await db.query(
      `SELECT d.status, d.attempts, d.last_error, e.last_error AS event_error
         FROM event_delivery d JOIN outbox_event e ON e.id = d.outbox_event_id
        WHERE e.aggregate_id = $1 AND d.email_notification_id IS NOT NULL`,
      [shipmentId],
    );
    return row as {
      status: string;
      attempts: number;
      last_error: string | null;
      event_error: string | null;
    };
  }
  const mentions = (server: TestSmtp, text: string) =>
    server.messages.filter((m) => m.subject.includes(text) || m.raw.includes(text));
  const header = (raw: string, name: string) =>
    new RegExp(`^${name}: (.*(?:\\r\\n[ \\t].*)*)`, 'im').exec(raw.split('\r\n\r\n')[0])?.[1] ??
    null;

  describe('delivery', () => {
    it("sends through the workspace's server, as its sender, authenticated, cc and bcc in one message", async () => {
      await useSmtp(await smtpCredentials()).expect(200);
      await notification(tenant, { cc: ['boss@acme.test'], bcc: ['audit@acme.test'] });
      const s = await shipment();
      const attemptsBefore = shop.authAttempts.length;
      await deliver();

      const mail = await shop.waitFor(s.email, new RegExp(s.trackingNumber));
      expect(mail.subject).toBe(`Parcel ${s.trackingNumber} delivered`);
      expect(mail.from).toBe('orders@acme.test');
      expect(mail.user).toBe(SHOP_USER);
      expect(shop.authAttempts.slice(attemptsBefore)).toContainEqual({
        method: expect.stringMatching(/^(PLAIN|LOGIN)$/),
        user: SHOP_USER,
        ok: true,
      });
      expect(header(mail.raw, 'From')).toBe('Acme Store <orders@acme.test>');
      // One message: every recipient in its envelope, bcc only there.
      expect([...mail.to].sort()).toEqual(['audit@acme.test', 'boss@acme.test', s.email].sort());
      expect(header(mail.raw, 'To')).toBe(s.email);
      expect(header(mail.raw, 'Cc')).toBe('boss@acme.test');
      expect(header(mail.raw, 'Bcc')).toBeNull();
      expect(mail.raw).not.toContain('audit@acme.test');
      expect(mentions(shop, s.trackingNumber)).toEqual([]);
      expect(mentions(global, s.trackingNumber)).toEqual([]);
      expect(await deliveryOf(s.id)).toMatchObject({
        status: 'delivered',
        attempts: 1,
        last_error: null,
      });
      expect(app.get(NotificationMailer).size).toBeGreaterThan(0);
    });

    it('sends through the global server as MAIL_FROM when the workspace has no smtpCredentials', async () => {
      await smtpCredentials(); // the team has some, the workspace does not use them
      await notification(tenant, { cc: ['boss@acme.test'], bcc: ['audit@acme.test'] });
      const s = await shipment();
      await deliver();
      const mail = await global.waitFor(s.email, new RegExp(s.trackingNumber));
      expect(mail.from).toBe('platform@example.test');
      expect(mail.user).toBeUndefined();
      expect([...mail.to].sort()).toEqual(['audit@acme.test', 'boss@acme.test', s.email].sort());
      expect(header(mail.raw, 'Cc')).toBe('boss@acme.test');
      expect(mail.raw).not.toContain('audit@acme.test');
      expect(mentions(global, s.trackingNumber)).toEqual([]);
      expect(mentions(shop, s.trackingNumber)).toEqual([]);
      expect((await deliveryOf(s.id)).status).toBe('delivered');
    });

    it('goes back to the global server once the workspace drops its smtpCredentials', async () => {
      const credentials = await smtpCredentials();
      await useSmtp(credentials).expect(200);
      await notification();
      const first = await shipment();
      await deliver();
      await shop.waitFor(first.email, new RegExp(first.trackingNumber));
      await useSmtp(null).expect(200);
      const second = await shipment();
      await deliver();
      const mail = await global.waitFor(second.email, new RegExp(second.trackingNumber));
      expect(mail.from).toBe('platform@example.test');
      expect(mentions(shop, second.trackingNumber)).toEqual([]);
    });

    it('mails copies to undisclosed recipients when the customer has no address', async () => {
      await useSmtp(await smtpCredentials()).expect(200);
      await notification(tenant, { bcc: ['audit@acme.test', 'owner@acme.test'] });
      const s = await shipment(tenant, null);
      await deliver();
      const mail = await shop.waitFor('audit@acme.test', new RegExp(s.trackingNumber));
      expect([...mail.to].sort()).toEqual(['audit@acme.test', 'owner@acme.test']);
      expect(header(mail.raw, 'To')).toMatch(/^"?undisclosed-recipients"?:;$/);
      expect(mail.raw).not.toMatch(/audit@acme\.test|owner@acme\.test/);
      expect(mentions(shop, s.trackingNumber)).toEqual([]);
    });

    it('records recipients the server refuses and still delivers to the others', async () => {
      await useSmtp(await smtpCredentials()).expect(200);
      await notification(tenant, { cc: ['boss@acme.test'] });
      const s = await shipment();
      shop.refuse('boss@acme.test', 1);
      await deliver();
      const mail = await shop.waitFor(s.email, new RegExp(s.trackingNumber));
      expect(mail.to).toEqual([s.email]);
      expect(await deliveryOf(s.id)).toMatchObject({
        status: 'delivered',
        last_error: 'refused by the mail server: boss@acme.test',
      });
    });
  });

  describe('transports', () => {
    it('keeps one pooled transport per credentials record: reused, replaced when they change, closed at shutdown', async () => {
      const mailer = app.get(NotificationMailer);
      mailer.onApplicationShutdown();
      expect(mailer.size).toBe(0);
      const credentials = await smtpCredentials();
      await useSmtp(credentials).expect(200);
      const n = await notification();
      const send = () =>
        http()
          .post('/email_notifications/send_test', { id: n.id, email: 'cache@acme.test' })
          .expect(200);
      const auths = shop.authAttempts.length;
      await send();
      await send();
      expect(mailer.size).toBe(1);
      // Both messages over one authenticated connection of the pool.
      expect(shop.authAttempts.length - auths).toBe(1);
      for (let i = 0; i < 2; i++) {
        expect((await shop.waitFor('cache@acme.test', /delivered/)).from).toBe('orders@acme.test');
      }

      await http()
        .put(credentials, {
          parameters: {
            host: '127.0.0.1',
            port: shop.port,
            username: SHOP_USER,
            fromEmail: 'news@acme.test',
          },
        })
        .expect(200);
      await send();
      expect(mailer.size).toBe(1);
      expect(shop.authAttempts.length - auths).toBe(2);
      expect((await shop.waitFor('cache@acme.test', /delivered/)).from).toBe('news@acme.test');

      mailer.onApplicationShutdown();
      expect(mailer.size).toBe(0);
    });
  });

  describe('failures', () => {
    it('retries a failing workspace server with the recorded error naming it, never the password; a fixed password is used at once', async () => {
      const credentials = await smtpCredentials(tenant, {}, 'wrong-password-4711');
      await useSmtp(credentials).expect(200);
      await notification();
      const s = await shipment();
      await deliver();

      const failed = await deliveryOf(s.id);
      expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
      expect(failed.last_error).toContain(`SMTP server 127.0.0.1:${shop.port} (${credentials})`);
      expect(failed.last_error).toMatch(/535/);
      expect(failed.event_error).toBe(failed.last_error);
      const secretForms = [
        'wrong-password-4711',
        Buffer.from('wrong-password-4711').toString('base64'),
        Buffer.from(`\u0000${SHOP_USER}\u0000wrong-password-4711`).toString('base64'),
      ];
      for (const form of secretForms) expect(failed.last_error).not.toContain(form);
      expect(shop.authAttempts).toContainEqual(
        expect.objectContaining({ user: SHOP_USER, ok: false }),
      );
      expect(mentions(shop, s.trackingNumber)).toEqual([]);
      expect(mentions(global, s.trackingNumber)).toEqual([]); // no fallback to the global server

      // The credentials change (updated_at): the next attempt builds a new transport.
      await http()
        .put(credentials, { secrets: { password: SHOP_PASSWORD } })
        .expect(200);
      app.get(Clock).advance(6 * 3600_000);
      await deliver();
      const mail = await shop.waitFor(s.email, new RegExp(s.trackingNumber));
      expect(mail.user).toBe(SHOP_USER);
      expect(await deliveryOf(s.id)).toMatchObject({ status: 'delivered', attempts: 2 });
    });

    it('gives up after EVENT_DELIVERY_MAX_ATTEMPTS when the server keeps failing', async () => {
      await useSmtp(await smtpCredentials(tenant, {}, 'wrong-password-4711')).expect(200);
      await notification();
      const s = await shipment();
      for (let i = 0; i < 3; i++) {
        await deliver();
        app.get(Clock).advance(6 * 3600_000);
      }
      const row = await deliveryOf(s.id);
      expect(row).toMatchObject({ status: 'failed', attempts: 3 });
      expect(row.last_error).toMatch(new RegExp(`^SMTP server 127\\.0\\.0\\.1:${shop.port} `));
    });

    it('fails at once, without connecting, for a private host or incomplete credentials', async () => {
      const attempts = shop.authAttempts.length;
      await useSmtp(await smtpCredentials(tenant, { host: '10.1.2.3' })).expect(200);
      await notification();
      const s = await shipment();
      await deliver();
      const refused = await deliveryOf(s.id);
      expect(refused).toMatchObject({ status: 'failed', attempts: 1 });
      expect(refused.last_error).toMatch(
        /SMTP server of \/credentials\/\S+: refused: not a public address$/,
      );

      const incomplete = (
        await http()
          .post('/credentials', {
            type: 'smtp',
            team: `/teams/${tenant.teamId}`,
            parameters: { host: '127.0.0.1' },
          })
          .expect(201)
      ).body['@id'];
      await useSmtp(incomplete).expect(200);
      const t = await shipment();
      await deliver();
      expect(await deliveryOf(t.id)).toMatchObject({
        status: 'failed',
        attempts: 1,
        last_error: `the SMTP credentials lack parameters.fromEmail (${incomplete})`,
      });
      expect(shop.authAttempts.length).toBe(attempts);
      expect(mentions(global, s.trackingNumber).concat(mentions(global, t.trackingNumber))).toEqual(
        [],
      );
    });
  });

  describe('send_test', () => {
    it("goes through the workspace's server, or the global one without smtpCredentials", async () => {
      const n = await notification();
      await http()
        .post('/email_notifications/send_test', { id: n.id, email: 'tester@acme.test' })
        .expect(200);
      const viaGlobal = await global.waitFor('tester@acme.test', /delivered/);
      expect(viaGlobal.from).toBe('platform@example.test');

      await useSmtp(await smtpCredentials()).expect(200);
      await http()
        .post('/email_notifications/send_test', { id: n.id, email: 'tester@acme.test' })
        .expect(200);
      const viaShop = await shop.waitFor('tester@acme.test', /delivered/);
      expect(viaShop.from).toBe('orders@acme.test');
      expect(viaShop.user).toBe(SHOP_USER);
      expect(global.messages.filter((m) => m.to.includes('tester@acme.test'))).toEqual([]);
    });

    it('answers 502 naming the workspace server and why, never the password', async () => {
      const credentials = await smtpCredentials(tenant, {}, 'wrong-password-4711');
      await useSmtp(credentials).expect(200);
      const n = await notification();
      const res = await http()
        .post('/email_notifications/send_test', { id: n.id, email: 'tester@acme.test' })
        .expect(502);
      const description = res.body['hydra:description'] as string;
      expect(description).toContain('The test e-mail could not be handed to the mail server.');
      expect(description).toContain(`SMTP server 127.0.0.1:${shop.port} (${credentials})`);
      expect(description).toMatch(/535/);
      expect(JSON.stringify(res.body)).not.toContain('wrong-password-4711');
      expect(shop.messages.filter((m) => m.to.includes('tester@acme.test'))).toEqual([]);
    });
  });

  describe('emailSettings.smtpCredentials validation', () => {
    it('takes SMTP credentials of the workspace team and reads the IRI back', async () => {
      const credentials = await smtpCredentials();
      const res = await useSmtp(credentials).expect(200);
      expect(res.body.emailSettings).toEqual({
        logo: null,
        signature: null,
        smtpCredentials: credentials,
      });
      const read = await http().get(`/workspaces/${tenant.workspaceId}`).expect(200);
      expect(read.body.emailSettings.smtpCredentials).toBe(credentials);
    });

    it('refuses credentials of another type', async () => {
      const hook = await http()
        .post('/credentials', { type: 'webhook', team: `/teams/${tenant.teamId}` })
        .expect(201);
      const res = await useSmtp(hook.body['@id']).expect(422);
      expect(res.body.violations).toEqual([
        expect.objectContaining({
          propertyPath: 'emailSettings.smtpCredentials',
          message: 'The credentials must be of type smtp.',
        }),
      ]);
    });

    it("refuses another tenant's credentials as not found and a second team's as foreign", async () => {
      const other = await createTenant(app);
      const foreign = await smtpCredentials(other);
      const notFound = await useSmtp(foreign).expect(422);
      expect(notFound.body.violations).toEqual([
        expect.objectContaining({
          propertyPath: 'emailSettings.smtpCredentials',
          message: `Item not found for "${foreign}".`,
        }),
      ]);
      // A member of both teams sees both teams' credentials, but a workspace takes only its own team's.
      await db.query(
        `INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, 'admin')`,
        [other.teamId, tenant.userId],
      );
      await http().get(foreign).expect(200);
      const otherTeam = await useSmtp(foreign).expect(422);
      expect(otherTeam.body.violations).toEqual([
        expect.objectContaining({
          propertyPath: 'emailSettings.smtpCredentials',
          message: 'The credentials must belong to the team of the workspace.',
        }),
      ]);
      const after = await http().get(`/workspaces/${tenant.workspaceId}`).expect(200);
      expect(after.body.emailSettings.smtpCredentials).toBeNull();
    });

    it('refuses to delete credentials a workspace sends through until it stops', async () => {
      const credentials = await smtpCredentials();
      await useSmtp(credentials).expect(200);
      const refused = await http().delete(credentials).expect(422);
      expect(refused.body.violations[0].message).toBe(
        'These credentials are the SMTP server of 1 workspace(s); change their emailSettings first.',
      );
      await useSmtp(null).expect(200);
      await http().delete(credentials).expect(204);
    });
  });
});
