import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { EventDelivery } from '../src/events/event-delivery';
import { recordEvents } from '../src/events/outbox';
import { Clock } from '../src/tracking/clock';
import { verifySignature } from '../src/webhooks/webhook-signature';
import { testTrackingNumber } from './factories/commerce.factory';
import { Tenant, createTenant } from './factories/tenant.factory';
import { RETRIES, useEventApp, type EventApp } from './support/event-app';
import { api } from './support/http';
import type { TestSmtp } from './support/smtp';
import type { WebhookReceiver } from './support/webhook-receiver';

const SECRET = 'whsec_e2e_0123456789abcdef';

describe('webhook delivery', () => {
  const env = useEventApp({ smtp: true, env: RETRIES });
  let app: NestExpressApplication;
  let db: DataSource;
  let delivery: EventDelivery;
  let clock: Clock;
  let receiver: WebhookReceiver;
  let smtp: TestSmtp;
  let tenant: Tenant;

  beforeAll(() => {
    ({ app, db, receiver, smtp } = env as Required<EventApp>);
    delivery = app.get(EventDelivery);
    clock = app.get(Clock);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
    receiver.received.length = 0;
    receiver.answers.length = 0;
    clock.reset();
  });

  const http = () => api(app, { token: tenant.token });
  async function hook(extra: Record<string, unknown> = {}, path = '/hook') {
    const res = await http()
      .post('/workflows', {
        title: 'ERP hook',
        type: 'webhook',
        workspace: `/workspaces/${tenant.workspaceId}`,
        enabled: true,
        period: 'immediately',
        credentials: {
          type: 'webhook',
          parameters: { url: receiver.url(path) },
          secrets: { signingSecret: SECRET },
        },
        ...extra,
      })
      .expect(201);
    return res.body as Record<string, any>;
  }
  const mine = (path = '/hook') => receiver.received.filter((r) => r.path === path);
  // Shipments also emit shipment.created/updated; these tests follow the status changes.
  const eventsOf = (aggregateId: string, type = 'shipment.status_changed') =>
    db.query(
      `SELECT id, delivered_at, dispatched_at, attempts, last_error FROM outbox_event WHERE aggregate_id = $1 AND type = $2`,
      [aggregateId, type],
    );

  it('POSTs a status change, signed over "<timestamp>.<raw body>", and records the run', async () => {
    const workflow = await hook({}, '/signed');
    const shipment = await http()
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: testTrackingNumber('200'),
      })
      .expect(201);
    const [event] = await eventsOf(shipment.body.id);
    expect(event.delivered_at).toBeNull();

    await delivery.runUntilIdle();

    const [request] = mine('/signed').filter(
      (r) => r.headers['x-event-type'] === 'shipment.status_changed',
    );
    expect(request).toBeDefined();
    const body = JSON.parse(request.body);
    expect(body).toEqual({
      id: event.id,
      type: 'shipment.status_changed',
      createdAt: expect.any(String),
      workspace: `/workspaces/${tenant.workspaceId}`,
      data: expect.objectContaining({
        shipment: `/shipments/${shipment.body.id}`,
        trackingNumber: shipment.body.trackingNumber,
        previousStatus: null,
        trackingStatus: 'delivered',
      }),
    });
    expect(request.headers['x-event-id']).toBe(event.id);
    expect(request.headers['x-event-type']).toBe('shipment.status_changed');
    expect(request.headers['content-type']).toBe('application/json');
    const signature = String(request.headers['x-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const now = Math.floor(Date.now() / 1000);
    expect(verifySignature(SECRET, signature, request.body, now)).toBe(true);
    expect(verifySignature('another secret', signature, request.body, now)).toBe(false);

    const [after] = await eventsOf(shipment.body.id);
    expect(after.delivered_at).not.toBeNull();
    expect(after.attempts).toBe(1);
    const runs = await http().get(`/workflows/${workflow.id}/runs`).expect(200);
    expect(
      runs.body['hydra:member'].filter(
        (r: { eventType: string }) => r.eventType === 'shipment.status_changed',
      ),
    ).toEqual([
      expect.objectContaining({
        status: 'success',
        responseCode: 200,
        eventId: event.id,
        eventType: 'shipment.status_changed',
        attempt: 1,
        duration: expect.any(Number),
        finishedAt: expect.any(String),
      }),
    ]);
    const wf = await http().get(`/workflows/${workflow.id}`).expect(200);
    expect(wf.body.lastRunDate).not.toBeNull();
    expect(wf.body.runInProgress).toBe(false);
  });

  it('retries after a 500 with backoff, with the same event id, and records each attempt', async () => {
    const workflow = await hook({}, '/flaky');
    receiver.answers.push(500, 503);
    const aggregateId = await statusChange();
    await delivery.runOnce();
    expect(mine('/flaky')).toHaveLength(1);
    // Not due again before the backoff (30 s) has passed.
    await delivery.runOnce();
    expect(mine('/flaky')).toHaveLength(1);
    clock.advance(31_000);
    await delivery.runOnce();
    expect(mine('/flaky')).toHaveLength(2);
    // Second failure: the delay doubles (60 s).
    clock.advance(31_000);
    await delivery.runOnce();
    expect(mine('/flaky')).toHaveLength(2);
    clock.advance(30_000);
    await delivery.runOnce();
    const requests = mine('/flaky');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['x-event-id'])).size).toBe(1);
    expect(requests.map((r) => r.headers['x-delivery-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);

    const runs = await http()
      .get(`/workflows/${workflow.id}/runs?order[createdAt]=asc`)
      .expect(200);
    expect(
      runs.body['hydra:member'].map((r: Record<string, unknown>) => [r.status, r.responseCode]),
    ).toEqual([
      ['failed', 500],
      ['failed', 503],
      ['success', 200],
    ]);
    const failed = await http().get(`/workflows/${workflow.id}/runs?status=failed`).expect(200);
    expect(failed.body['hydra:totalItems']).toBe(2);
    const [event] = await eventsOf(aggregateId);
    expect(event.delivered_at).not.toBeNull();
    expect(event.attempts).toBe(3);
    expect(event.last_error).toMatch(/HTTP 503/);
  });

  it('gives up after the last attempt and tells the team owners and notificationEmails', async () => {
    const workflow = await hook({ notificationEmails: ['ops@example.com'] }, '/down');
    receiver.answers.push(500, 500, 500);
    const aggregateId = await statusChange();
    for (let i = 0; i < 3; i++) {
      await delivery.runOnce();
      clock.advance(10 * 60_000);
    }
    await delivery.runOnce();
    expect(mine('/down')).toHaveLength(3);
    const [event] = await eventsOf(aggregateId);
    expect(event.delivered_at).not.toBeNull();
    expect(event.last_error).toMatch(/HTTP 500/);
    const [row] = await db.query(
      `SELECT status, attempts FROM event_delivery WHERE workflow_id = $1`,
      [workflow.id],
    );
    expect(row).toEqual({ status: 'failed', attempts: 3 });
    const notices = await http().get('/notifications?tag=workflow_failed').expect(200);
    expect(notices.body['hydra:member']).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/ERP hook.*after 3 attempt/),
        data: [`/workflows/${workflow.id}`],
      }),
    ]);
    const mail = await smtp.waitFor('ops@example.com', /ERP hook/);
    expect(mail.text).toMatch(/HTTP 500/);
  });

  it('refuses private targets at delivery time (URL changed behind its back) without retrying', async () => {
    const workflow = await hook({}, '/private');
    await db.query(
      `UPDATE credentials SET parameters = '{"url": "http://10.20.30.40/hook"}'::jsonb
        WHERE id = (SELECT credentials_id FROM workflow WHERE id = $1)`,
      [workflow.id],
    );
    await statusChange();
    await delivery.runUntilIdle();
    expect(mine('/private')).toHaveLength(0);
    const runs = await http().get(`/workflows/${workflow.id}/runs`).expect(200);
    expect(runs.body['hydra:member']).toEqual([
      expect.objectContaining({
        status: 'failed',
        responseCode: null,
        errors: expect.stringMatching(/private, loopback or link-local/),
      }),
    ]);
    const [row] = await db.query(`SELECT status FROM event_delivery WHERE workflow_id = $1`, [
      workflow.id,
    ]);
    expect(row.status).toBe('failed');
  });

  it('holds deliveries of hourly and manual workflows until they are due or executed', async () => {
    const hourly = await hook({ period: 'hourly', title: 'Hourly' }, '/hourly');
    const manual = await hook({ period: 'manual', title: 'Manual' }, '/manual');
    await statusChange();
    await delivery.runUntilIdle();
    expect(mine('/hourly')).toHaveLength(0);
    expect(mine('/manual')).toHaveLength(0);
    clock.advance(3600_000);
    await delivery.runUntilIdle();
    expect(mine('/hourly')).toHaveLength(1);
    expect(mine('/manual')).toHaveLength(0);
    const res = await http().post('/workflows/execute', {}).expect(200);
    expect(res.body.workflows).toEqual(expect.arrayContaining([hourly['@id'], manual['@id']]));
    expect(res.body.runs).toHaveLength(1);
    expect(mine('/manual')).toHaveLength(1);
    const run = await http().get(res.body.runs[0]).expect(200);
    expect(run.body).toMatchObject({ workflow: manual['@id'], status: 'success' });
  });

  it('sends nothing to disabled webhooks or other workspaces’ webhooks', async () => {
    await hook({ enabled: false, credentials: null }, '/disabled');
    const other = await createTenant(app);
    await statusChange(other.workspaceId);
    await delivery.runUntilIdle();
    expect(mine('/disabled')).toHaveLength(0);
    expect(mine('/hook')).toHaveLength(0);
  });

  /** A status-change event of a new shipment in the workspace; returns the shipment id. */
  async function statusChange(workspaceId = tenant.workspaceId): Promise<string> {
    const [shipment] = await db.query(
      `INSERT INTO shipment (workspace_id, tracking_number, tracking_status) VALUES ($1, $2, 'in_transit') RETURNING id`,
      [workspaceId, testTrackingNumber('102')],
    );
    await recordEvents(db, [
      {
        type: 'shipment.status_changed',
        workspaceId,
        aggregateType: 'shipment',
        aggregateId: shipment.id,
        payload: {
          shipment: `/shipments/${shipment.id}`,
          trackingNumber: null,
          previousStatus: null,
          trackingStatus: 'in_transit',
          lastStatusUpdate: null,
        },
      },
    ]);
    return shipment.id;
  }
});
