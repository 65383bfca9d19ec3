import type { NestExpressApplication } from '@nestjs/platform-express';
import { addTeamMemberByEmail } from './factories/identity.factory';
import { DataSource } from 'typeorm';
import { EventDelivery } from '../src/events/event-delivery';
import { Clock } from '../src/tracking/clock';
import { testTrackingNumber } from './factories/commerce.factory';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { setAsideEarlierEvents } from './support/event-app';
import { api } from './support/http';
import { TestSmtp, startTestSmtp } from './support/smtp';

describe('email notifications', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let smtp: TestSmtp;
  let tenant: Tenant;
  const saved = { ...process.env };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    process.env.SMTP_URL = smtp.url;
    process.env.PUBLIC_TRACKING_BASE_URL = 'https://track.example.test';
    app = await createTestApp();
    db = app.get(DataSource);
    await setAsideEarlierEvents(db);
  });
  beforeEach(async () => {
    tenant = await createTenant(app, { workspaceTitle: 'Acme Store' });
    app.get(Clock).reset();
  });
  afterAll(async () => {
    await closeTestApp(app);
    await smtp.close();
    process.env = saved;
  });

  const http = () => api(app, { token: tenant.token });
  const workspace = () => `/workspaces/${tenant.workspaceId}`;
  const create = (extra: Record<string, unknown> = {}) =>
    http().post('/email_notifications', {
      workspace: workspace(),
      event: 'shipment.delivered',
      title: 'Delivered',
      subject: 'Parcel {{ trackingNumber }} delivered',
      body: '<p>Hi {{firstName}}, {{trackingStatusTitle}}. <a href="{{trackingUrl}}">Track</a></p>',
      ...extra,
    });
  /** The attributes a PUT writes, as read. */
  const writable = (record: Record<string, any>) => ({
    condition: record.condition,
    scheduleDelay: record.scheduleDelay,
    enabled: record.enabled,
    title: record.title,
    cc: record.cc,
    bcc: record.bcc,
    subject: record.subject,
    body: record.body,
    trackingPage: record.trackingPage,
  });
  async function shipment(extra: Record<string, unknown> = {}, prefix = '200') {
    const res = await http()
      .post('/shipments', {
        workspace: workspace(),
        trackingNumber: testTrackingNumber(prefix),
        email: 'customer@example.com',
        address: { firstName: 'Dana' },
        ...extra,
      })
      .expect(201);
    return res.body as Record<string, any>;
  }
  async function trackingPage(): Promise<string> {
    const res = await http()
      .put(workspace(), {
        title: 'Acme Store',
        defaultTrackingPage: {
          title: 'Track',
          subdomain: `acme${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`,
        },
      })
      .expect(200);
    return res.body.defaultTrackingPage;
  }

  describe('CRUD', () => {
    it('creates, reads, replaces and deletes with the reference fields', async () => {
      const res = await create({ cc: ['boss@example.com'], scheduleDelay: '2h' }).expect(201);
      expect(res.body).toMatchObject({
        '@type': 'EmailNotification',
        event: 'shipment.delivered',
        system: false,
        condition: null,
        scheduleDelay: '2h',
        enabled: true,
        workspace: workspace(),
        title: 'Delivered',
        cc: ['boss@example.com'],
        bcc: [],
        subject: 'Parcel {{ trackingNumber }} delivered',
        createdAt: expect.any(String),
        lastEmailSentAt: null,
        trackingPage: null,
      });
      const put = await http()
        .put(res.body['@id'], {
          enabled: false,
          title: 'Done',
          event: 'shipment.error',
          system: true,
        })
        .expect(200);
      expect(put.body).toMatchObject({
        enabled: false,
        title: 'Done',
        event: 'shipment.delivered',
        system: false,
        // PUT replaces: left out, back to the defaults.
        cc: [],
        scheduleDelay: null,
        subject: null,
        body: null,
      });
      await http().delete(res.body['@id']).expect(204);
      await http().get(res.body['@id']).expect(404);
    });

    it('validates events, addresses, templates, conditions, delays and tracking pages', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ event: 'order.created' }, 'event'],
        [{ cc: ['nope'] }, 'cc[0]'],
        [{ bcc: ['a@example.com', 'bad'] }, 'bcc[1]'],
        [{ subject: 'Hi {{ password }}' }, 'subject'],
        [{ body: '{{unknownThing}}' }, 'body'],
        [{ condition: 'trackingStatus ~ delivered' }, 'condition'],
        [{ condition: 'colour == red' }, 'condition'],
        [{ scheduleDelay: 'tomorrow' }, 'scheduleDelay'],
      ];
      for (const [body, path] of cases) {
        const res = await create(body).expect(422);
        expect(res.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toContain(
          path,
        );
      }
      await create({ event: null }).expect(400);
      await create({ cc: 'x@example.com' }).expect(400);
      await create({ enabled: 'yes' }).expect(400);
      const other = await createTenant(app);
      const foreignPage = await api(app, { token: other.token })
        .put(`/workspaces/${other.workspaceId}`, {
          title: 'Other',
          defaultTrackingPage: { title: 'T', subdomain: `other${Date.now().toString(36)}` },
        })
        .expect(200);
      const res = await create({ trackingPage: foreignPage.body.defaultTrackingPage }).expect(422);
      expect(res.body.violations[0]).toMatchObject({ propertyPath: 'trackingPage' });
      await api(app, { token: other.token })
        .post('/email_notifications', {
          workspace: workspace(),
          event: 'shipment.delivered',
        })
        .expect(422);
    });

    it('filters by id, event, title and dates on every route; other tenants get 404', async () => {
      const a = (await create({ event: 'shipment.delivered', title: 'A' }).expect(201)).body;
      const b = (await create({ event: 'shipment.in_transit', title: 'B' }).expect(201)).body;
      const c = (await create({ event: 'shipment.error', title: 'C' }).expect(201)).body;
      await db.query(
        `UPDATE email_notification SET last_email_sent_at = '2025-05-01T00:00:00Z' WHERE id = $1`,
        [b.id],
      );
      await db.query(
        `UPDATE email_notification SET created_at = '2024-01-01T00:00:00Z' WHERE id = $1`,
        [c.id],
      );
      const ids = async (
        query: string,
        base = `/workspaces/${tenant.workspaceId}/email_notifications`,
      ) =>
        (await http().get(`${base}${query}`).expect(200)).body['hydra:member'].map(
          (m: { id: string }) => m.id,
        );
      expect(await ids('')).toEqual([c.id, a.id, b.id]);
      expect(await ids(`?id=${a.id}`)).toEqual([a.id]);
      expect(await ids(`?id[]=${a['@id']}&id[]=${b.id}`)).toEqual([a.id, b.id]);
      expect(await ids('?event=shipment.in_transit')).toEqual([b.id]);
      expect(await ids('?event[]=shipment.error&event[]=shipment.delivered')).toEqual([c.id, a.id]);
      expect(await ids('?title=C')).toEqual([c.id]);
      expect(await ids('?createdAt[before]=2024-12-31')).toEqual([c.id]);
      expect(await ids('?createdAt[strictly_after]=2024-12-31')).toEqual([a.id, b.id]);
      expect(await ids('?lastEmailSentAt[after]=2025-04-30')).toEqual([b.id]);
      expect(await ids('?lastEmailSentAt[strictly_before]=2025-04-30')).toEqual([]);
      expect(await ids('?event=shipment.error', '/email_notifications')).toEqual([c.id]);
      expect(
        await ids(
          '?event=shipment.error',
          `/teams/${tenant.teamId}/workspaces/${tenant.workspaceId}/email_notifications`,
        ),
      ).toEqual([c.id]);
      const other = await createTenant(app);
      const them = api(app, { token: other.token });
      await them.get(`/email_notifications/${a.id}`).expect(404);
      await them.put(`/email_notifications/${a.id}`, { title: 'x' }).expect(404);
      await them.delete(`/email_notifications/${a.id}`).expect(404);
      await them.get(`/workspaces/${tenant.workspaceId}/email_notifications`).expect(404);
      await them.post('/email_notifications/preview', { id: a.id }).expect(422);
      await them
        .post('/email_notifications/send_test', { id: a.id, email: 'x@example.com' })
        .expect(422);
      await them
        .post('/email_notifications/reset_defaults', { id: tenant.workspaceId })
        .expect(422);
    });

    it('allows 50000 per page on the workspace route and 500 on the team route', async () => {
      await db.query(
        `INSERT INTO email_notification (workspace_id, event) SELECT $1, 'shipment.delivered' FROM generate_series(1, 501)`,
        [tenant.workspaceId],
      );
      const wide = await http()
        .get(`/workspaces/${tenant.workspaceId}/email_notifications?itemsPerPage=60000`)
        .expect(200);
      expect(wide.body['hydra:member']).toHaveLength(501);
      const team = await http()
        .get(
          `/teams/${tenant.teamId}/workspaces/${tenant.workspaceId}/email_notifications?itemsPerPage=60000`,
        )
        .expect(200);
      expect(team.body['hydra:member']).toHaveLength(500);
    });
  });

  describe('PUT /email_notifications/{id} replaces the writable state', () => {
    const paths = (res: { body: { violations: Array<{ propertyPath: string }> } }) =>
      res.body.violations.map((v) => v.propertyPath).sort();

    it('puts attributes the body leaves out back to their POST defaults; ignores POST-only and read-only ones', async () => {
      const page = await trackingPage();
      const created = await create({
        condition: 'destinationCountry != Germany',
        scheduleDelay: '2h',
        enabled: false,
        cc: ['cc@example.com'],
        bcc: ['bcc@example.com'],
        trackingPage: page,
      }).expect(201);
      expect(writable(created.body)).toEqual({
        condition: 'destinationCountry != Germany',
        scheduleDelay: '2h',
        enabled: false,
        title: 'Delivered',
        cc: ['cc@example.com'],
        bcc: ['bcc@example.com'],
        subject: 'Parcel {{ trackingNumber }} delivered',
        body: expect.stringContaining('{{firstName}}'),
        trackingPage: page,
      });
      const second = await addWorkspace(app, tenant);
      const res = await http()
        .put(created.body['@id'], {
          title: 'Only the title',
          event: 'shipment.error',
          workspace: `/workspaces/${second}`,
          system: true,
          lastEmailSentAt: '2025-01-01T00:00:00Z',
          createdAt: '2020-01-01T00:00:00Z',
        })
        .expect(200);
      expect(res.body).toMatchObject({
        '@id': created.body['@id'],
        event: 'shipment.delivered',
        workspace: workspace(),
        system: false,
        lastEmailSentAt: null,
        createdAt: created.body.createdAt,
        title: 'Only the title',
        condition: null,
        scheduleDelay: null,
        enabled: true,
        cc: [],
        bcc: [],
        subject: null,
        body: null,
        trackingPage: null,
      });
      // Exactly what a POST of the same attributes stores.
      const posted = await http()
        .post('/email_notifications', {
          workspace: workspace(),
          event: 'shipment.delivered',
          title: 'Only the title',
        })
        .expect(201);
      expect(writable(res.body)).toEqual(writable(posted.body));
      const stored = await http().get(created.body['@id']).expect(200);
      expect(writable(stored.body)).toEqual(writable(res.body));

      // Lists given are replaced whole, the ones left out emptied.
      const lists = await http()
        .put(created.body['@id'], { cc: ['new@example.com'], enabled: false })
        .expect(200);
      expect(writable(lists.body)).toEqual({
        ...writable(posted.body),
        title: null,
        cc: ['new@example.com'],
        enabled: false,
      });
    });

    it('refuses invalid bodies as POST does (400, 422) and changes nothing', async () => {
      const created = await create({ cc: ['boss@example.com'], scheduleDelay: '1d' }).expect(201);
      const iri = created.body['@id'];
      const row = async () =>
        (await db.query(`SELECT * FROM email_notification WHERE id = $1`, [created.body.id]))[0];
      const before = await row();
      const other = await createTenant(app);
      const foreignPage = await api(app, { token: other.token })
        .put(`/workspaces/${other.workspaceId}`, {
          title: 'Other',
          defaultTrackingPage: { title: 'T', subdomain: `other${Date.now().toString(36)}` },
        })
        .expect(200);
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{ cc: ['boss@example.com', 'nope'] }, ['cc[1]']],
        [{ bcc: ['bad'] }, ['bcc[0]']],
        [{ subject: 'Hi {{ password }}', body: '{{unknownThing}}' }, ['body', 'subject']],
        [{ condition: 'colour == red' }, ['condition']],
        [{ scheduleDelay: 'tomorrow' }, ['scheduleDelay']],
        [{ title: 'x'.repeat(256) }, ['title']],
        [{ trackingPage: foreignPage.body.defaultTrackingPage }, ['trackingPage']],
      ];
      for (const [body, expected] of cases) {
        const put = await http().put(iri, body).expect(422);
        expect(paths(put)).toEqual(expected);
        const post = await create(body).expect(422);
        expect(paths(post)).toEqual(expected);
      }
      const typed = await http().put(iri, { enabled: 'yes' }).expect(400);
      expect(typed.body['hydra:description']).toBe(
        'The type of the "enabled" attribute must be "bool", "string" given.',
      );
      await http().put(iri, { cc: 'x@example.com' }).expect(400);
      await http().put(iri, { title: 5 }).expect(400);
      await http()
        .put(iri, { trackingPage: { id: 'x' } })
        .expect(400);

      expect(await row()).toEqual(before);
      const stored = await http().get(iri).expect(200);
      expect(writable(stored.body)).toEqual(writable(created.body));
    });

    it('answers 404 for another tenant’s notification and leaves it alone', async () => {
      const created = await create({ cc: ['boss@example.com'] }).expect(201);
      const other = await createTenant(app);
      const them = api(app, { token: other.token });
      await them.put(created.body['@id'], writable(created.body)).expect(404);
      await them.put(created.body['@id'], { title: 'Taken' }).expect(404);
      const [row] = await db.query(
        `SELECT title, cc, updated_at FROM email_notification WHERE id = $1`,
        [created.body.id],
      );
      const stored = await http().get(created.body['@id']).expect(200);
      expect(writable(stored.body)).toEqual(writable(created.body));
      expect(row.title).toBe('Delivered');
      expect(row.cc).toEqual(['boss@example.com']);
    });
  });

  describe('actions', () => {
    it('reset_defaults replaces the system notifications and keeps the custom ones', async () => {
      const custom = (await create({ title: 'Mine' }).expect(201)).body;
      const first = await http()
        .post('/email_notifications/reset_defaults', { id: workspace() })
        .expect(200);
      expect(first.body.workspace).toBe(workspace());
      const events = first.body.emailNotifications.map((n: { event: string }) => n.event);
      expect(events).toEqual([
        'shipment.in_transit',
        'shipment.delivery_in_progress',
        'shipment.available_for_pickup',
        'shipment.unsuccessful_delivery',
        'shipment.error',
        'shipment.return_to_sender',
        'shipment.delivered',
      ]);
      expect(first.body.emailNotifications.every((n: { system: boolean }) => n.system)).toBe(true);
      await http()
        .post('/email_notifications/reset_defaults', { id: tenant.workspaceId })
        .expect(200);
      const all = await http()
        .get(`/workspaces/${tenant.workspaceId}/email_notifications`)
        .expect(200);
      expect(all.body['hydra:totalItems']).toBe(8);
      expect(all.body['hydra:member'].map((n: { id: string }) => n.id)).toContain(custom.id);
      await http().post('/email_notifications/reset_defaults', {}).expect(422);
      await http().post('/email_notifications/reset_defaults', { id: 5 }).expect(400);
    });

    it('previews with sample values, a given shipment, or a draft', async () => {
      const n = (await create().expect(201)).body;
      const sample = await http().post('/email_notifications/preview', { id: n.id }).expect(200);
      expect(sample.body).toMatchObject({
        '@type': 'EmailNotificationPreview',
        subject: 'Parcel TM200SAMPLE0001TM delivered',
        html: expect.stringContaining('Hi Alex, Delivered.'),
        text: expect.stringContaining('Hi Alex, Delivered.'),
      });
      const page = await trackingPage();
      expect(page).toMatch(/^\/tracking_pages\//);
      const s = await shipment({ address: { firstName: '<Dana>' } });
      const real = await http()
        .post('/email_notifications/preview', { id: n['@id'], shipment: s['@id'] })
        .expect(200);
      expect(real.body.subject).toBe(`Parcel ${s.trackingNumber} delivered`);
      expect(real.body.html).toContain('Hi &lt;Dana&gt;');
      expect(real.body.html).toMatch(
        /href="https:\/\/track\.example\.test\/t\/[A-Za-z0-9_-]{20,}"/,
      );
      const draft = await http()
        .post('/email_notifications/preview', {
          workspace: workspace(),
          event: 'shipment.in_transit',
          subject: '{{workspaceTitle}}: {{trackingStatusTitle}}',
        })
        .expect(200);
      expect(draft.body.subject).toBe('Acme Store: In transit');
      expect(draft.body.html).toContain('Your parcel is on its way.');
      await http()
        .post('/email_notifications/preview', { workspace: workspace(), subject: '{{x}}' })
        .expect(422);
      await http().post('/email_notifications/preview', { id: 'nope' }).expect(422);
      await http().post('/email_notifications/preview', {}).expect(422);
      const other = await createTenant(app);
      const foreign = await api(app, { token: other.token })
        .post('/shipments', {
          workspace: `/workspaces/${other.workspaceId}`,
          trackingNumber: testTrackingNumber('200'),
        })
        .expect(201);
      await http()
        .post('/email_notifications/preview', { id: n.id, shipment: foreign.body['@id'] })
        .expect(422);
    });

    it('send_test mails the rendered notification through SMTP', async () => {
      await addTeamMemberByEmail(app, tenant, 'tester@example.com');
      const n = (await create().expect(201)).body;
      const res = await http()
        .post('/email_notifications/send_test', { id: n.id, email: 'tester@example.com' })
        .expect(200);
      expect(res.body).toMatchObject({
        sent: true,
        to: 'tester@example.com',
        subject: 'Parcel TM200SAMPLE0001TM delivered',
      });
      const mail = await smtp.waitFor('tester@example.com', /TM200SAMPLE0001TM/);
      expect(mail.text).toContain('Hi Alex, Delivered.');
      await http().post('/email_notifications/send_test', { id: n.id }).expect(200);
      await smtp.waitFor(tenant.email, /TM200SAMPLE0001TM/);
      await http()
        .post('/email_notifications/send_test', { id: n.id, email: 'not-an-address' })
        .expect(422);
    });
  });

  describe('delivery', () => {
    const deliver = () => app.get(EventDelivery).runUntilIdle();

    it('mails the customer, cc and bcc as one message when the event happens and records lastEmailSentAt', async () => {
      const n = (await create({ cc: ['cc@example.com'], bcc: ['bcc@example.com'] }).expect(201))
        .body;
      await create({ event: 'shipment.in_transit', title: 'Not this one' }).expect(201);
      const s = await shipment({ email: `buyer-${Date.now()}@example.com` });
      await deliver();
      const mail = await smtp.waitFor(s.email, /delivered/);
      expect(mail.subject).toBe(`Parcel ${s.trackingNumber} delivered`);
      expect(mail.text).toContain('Hi Dana, Delivered.');
      // One message: the customer in To, cc in Cc, bcc only among the envelope recipients.
      expect([...mail.to].sort()).toEqual(['bcc@example.com', 'cc@example.com', s.email].sort());
      const headers = mail.raw.split('\r\n\r\n')[0];
      expect(headers).toMatch(new RegExp(`^To: ${s.email.replace(/[.+]/g, '\\$&')}$`, 'm'));
      expect(headers).toMatch(/^Cc: cc@example\.com$/m);
      expect(mail.raw).not.toContain('bcc@example.com');
      expect(smtp.messages.filter((m) => m.subject.includes(s.trackingNumber))).toEqual([]);
      const after = await http().get(n['@id']).expect(200);
      expect(after.body.lastEmailSentAt).not.toBeNull();
      const again = await deliver();
      expect(again.attempted).toBe(0);
    });

    it('matches shipment.status_changed to every change and honours conditions', async () => {
      await create({
        event: 'shipment.status_changed',
        subject: 'Any {{trackingStatus}} {{trackingNumber}}',
      }).expect(201);
      await create({
        event: 'shipment.status_changed',
        subject: 'Never {{trackingNumber}}',
        condition: 'trackingStatus == cancelled',
      }).expect(201);
      const s = await shipment({ email: `cond-${Date.now()}@example.com` }, '102');
      await deliver();
      const mail = await smtp.waitFor(s.email, new RegExp(`Any in_transit ${s.trackingNumber}`));
      expect(mail).toBeDefined();
      expect(smtp.messages.some((m) => m.subject.startsWith('Never'))).toBe(false);
      const [row] = await db.query(
        `SELECT d.status, d.last_error FROM event_delivery d JOIN email_notification n ON n.id = d.email_notification_id
          WHERE n.workspace_id = $1 AND n.condition IS NOT NULL`,
        [tenant.workspaceId],
      );
      expect(row).toEqual({ status: 'skipped', last_error: 'the condition does not hold' });
    });

    it('waits for the schedule delay and skips shipments without any recipient', async () => {
      await create({ scheduleDelay: '2h', subject: 'Later {{trackingNumber}}' }).expect(201);
      const s = await shipment({ email: `later-${Date.now()}@example.com` });
      await deliver();
      expect(smtp.messages.some((m) => m.to.includes(s.email))).toBe(false);
      app.get(Clock).advance(2 * 3600_000 + 1000);
      await deliver();
      await smtp.waitFor(s.email, /Later/);
      app.get(Clock).reset();
      const nobody = await shipment({ email: null });
      await deliver();
      const [row] = await db.query(
        `SELECT d.status, d.last_error FROM event_delivery d JOIN outbox_event e ON e.id = d.outbox_event_id
          WHERE e.aggregate_id = $1`,
        [nobody.id],
      );
      expect(row).toEqual({ status: 'pending', last_error: null }); // delayed 2 h
      app.get(Clock).advance(2 * 3600_000 + 1000);
      await deliver();
      const [done] = await db.query(
        `SELECT d.status, d.last_error FROM event_delivery d JOIN outbox_event e ON e.id = d.outbox_event_id
          WHERE e.aggregate_id = $1`,
        [nobody.id],
      );
      expect(done).toEqual({ status: 'skipped', last_error: 'no recipient' });
    });

    it('ignores disabled notifications and other workspaces', async () => {
      await create({ enabled: false, subject: 'Disabled {{trackingNumber}}' }).expect(201);
      const second = await addWorkspace(app, tenant);
      await http()
        .post('/email_notifications', {
          workspace: `/workspaces/${second}`,
          event: 'shipment.delivered',
          subject: 'Elsewhere {{trackingNumber}}',
        })
        .expect(201);
      const s = await shipment({ email: `quiet-${Date.now()}@example.com` });
      await deliver();
      expect(smtp.messages.some((m) => m.to.includes(s.email))).toBe(false);
    });
  });
});
