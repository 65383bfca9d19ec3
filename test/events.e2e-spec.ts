import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { EventDelivery } from '../src/events/event-delivery';
import { recordEvents } from '../src/events/outbox';
import { Clock } from '../src/tracking/clock';
import { testTrackingNumber } from './factories/commerce.factory';
import { Tenant, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { setAsideEarlierEvents } from './support/event-app';
import { WebhookReceiver, startWebhookReceiver } from './support/webhook-receiver';

/**
 * "Events never get lost": events commit or roll back with their change, and every event
 * reaches its targets whatever happens to the nodes delivering it (restarts, a node dying
 * mid-attempt, several nodes at once).
 */
describe('outbox delivery survives crashes and concurrency', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let receiver: WebhookReceiver;
  let tenant: Tenant;
  const saved = { ...process.env };
  /** Further nodes (closed in afterAll). */
  const nodes: NestExpressApplication[] = [];
  const node = async () => {
    const created = await createTestApp();
    nodes.push(created);
    return created;
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    process.env.WEBHOOK_ALLOWED_HOSTS = '127.0.0.1';
    app = await createTestApp();
    db = app.get(DataSource);
    await setAsideEarlierEvents(db);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
    receiver.received.length = 0;
    app.get(Clock).reset();
  });
  afterAll(async () => {
    for (const n of nodes) await closeTestApp(n);
    await closeTestApp(app);
    await receiver.close();
    process.env = saved;
  });

  async function hook(path: string): Promise<string> {
    const res = await api(app, { token: tenant.token })
      .post('/workflows', {
        title: 'hook',
        type: 'webhook',
        workspace: `/workspaces/${tenant.workspaceId}`,
        enabled: true,
        period: 'immediately',
        credentials: {
          type: 'webhook',
          parameters: { url: receiver.url(path) },
          secrets: { signingSecret: 'whsec_events_0123456789' },
        },
      })
      .expect(201);
    return res.body.id;
  }
  /** `n` status changes of new shipments of the workspace (the tenant's by default). */
  async function events(n: number, workspaceId = tenant.workspaceId): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const [s] = await db.query(
        `INSERT INTO shipment (workspace_id, tracking_number) VALUES ($1, $2) RETURNING id`,
        [workspaceId, testTrackingNumber('102')],
      );
      await recordEvents(db, [
        {
          type: 'shipment.status_changed',
          workspaceId,
          aggregateType: 'shipment',
          aggregateId: s.id,
          payload: { shipment: `/shipments/${s.id}`, trackingStatus: 'in_transit' },
        },
      ]);
      const [e] = await db.query(`SELECT id FROM outbox_event WHERE aggregate_id = $1`, [s.id]);
      ids.push(e.id);
    }
    return ids;
  }
  const receivedIds = (path: string) =>
    receiver.received.filter((r) => r.path === path).map((r) => String(r.headers['x-event-id']));
  const undelivered = (ids: string[]) =>
    db
      .query(
        `SELECT count(*)::int AS n FROM outbox_event WHERE id = ANY($1) AND delivered_at IS NULL`,
        [ids],
      )
      .then((r) => r[0].n as number);

  it('writes nothing when the change rolls back', async () => {
    const [s] = await db.query(
      `INSERT INTO shipment (workspace_id, tracking_number) VALUES ($1, $2) RETURNING id`,
      [tenant.workspaceId, testTrackingNumber('102')],
    );
    await expect(
      db.transaction(async (em) => {
        await recordEvents(em, [
          {
            type: 'shipment.status_changed',
            workspaceId: tenant.workspaceId,
            aggregateType: 'shipment',
            aggregateId: s.id,
            payload: {},
          },
        ]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await db.query(`SELECT 1 FROM outbox_event WHERE aggregate_id = $1`, [s.id])).toEqual(
      [],
    );
  });

  it('marks events without any target delivered when dispatched', async () => {
    const ids = await events(2);
    await app.get(EventDelivery).runUntilIdle();
    expect(await undelivered(ids)).toBe(0);
    const rows = await db.query(
      `SELECT count(*)::int AS n FROM event_delivery WHERE outbox_event_id = ANY($1)`,
      [ids],
    );
    expect(rows[0].n).toBe(0);
  });

  it("fans one batch of several workspaces' events out to each workspace's own targets", async () => {
    // Dispatch reads each workspace's targets once per batch: events interleaved across a
    // workspace with a webhook and one without must still each get their own.
    const workflowId = await hook('/batch');
    const other = await createTenant(app);
    const withHook = await events(3);
    const without = await events(3, other.workspaceId);
    await app.get(EventDelivery).dispatch(100);
    const rows: { id: string; dispatched: boolean; delivered: boolean; workflows: string[] }[] =
      await db.query(
        `SELECT e.id, e.dispatched_at IS NOT NULL AS dispatched, e.delivered_at IS NOT NULL AS delivered,
                array_remove(array_agg(d.workflow_id::text), NULL) AS workflows
           FROM outbox_event e LEFT JOIN event_delivery d ON d.outbox_event_id = e.id
          WHERE e.id = ANY($1) GROUP BY e.id`,
        [[...withHook, ...without]],
      );
    const of = new Map(rows.map((r) => [r.id, r]));
    for (const id of withHook)
      expect(of.get(id)).toMatchObject({
        dispatched: true,
        delivered: false,
        workflows: [workflowId],
      });
    for (const id of without)
      expect(of.get(id)).toMatchObject({ dispatched: true, delivered: true, workflows: [] });
  });

  it('delivers after a restart what a node dispatched but never sent', async () => {
    await hook('/restart');
    const ids = await events(3);
    // A node dispatches, then goes away with the deliveries planned but not attempted.
    const crashed = await createTestApp();
    await crashed.get(EventDelivery).dispatch();
    await closeTestApp(crashed);
    const restarted = await node();
    await restarted.get(EventDelivery).runUntilIdle();
    expect(receivedIds('/restart').sort()).toEqual([...ids].sort());
    expect(await undelivered(ids)).toBe(0);
  });

  it('attempts again once the lease of a node that died mid-attempt runs out', async () => {
    await hook('/lease');
    const ids = await events(1);
    const delivery = app.get(EventDelivery);
    await delivery.dispatch();
    // A node claims the delivery and dies before sending anything.
    const claimed = await delivery.claimDue(10);
    expect(claimed).toHaveLength(1);
    await delivery.runOnce();
    expect(receivedIds('/lease')).toEqual([]); // still leased
    app.get(Clock).advance(delivery.leaseMs + 1000);
    await delivery.runOnce();
    expect(receivedIds('/lease')).toEqual(ids);
    const [row] = await db.query(
      `SELECT status, attempts FROM event_delivery WHERE outbox_event_id = $1`,
      ids,
    );
    expect(row).toEqual({ status: 'delivered', attempts: 2 });
    expect(await undelivered(ids)).toBe(0);
  });

  it('delivers each event once when several nodes run rounds at the same time', async () => {
    await hook('/concurrent');
    const ids = await events(30);
    const all = [app, await node(), await node()];
    await Promise.all(all.map((n) => n.get(EventDelivery).runUntilIdle(5)));
    const got = receivedIds('/concurrent');
    expect(got).toHaveLength(30);
    expect(new Set(got)).toEqual(new Set(ids));
    expect(await undelivered(ids)).toBe(0);
  });

  it('delivers in the background when EVENT_DELIVERY_ENABLED is on', async () => {
    await hook('/background');
    process.env.EVENT_DELIVERY_ENABLED = 'true';
    process.env.EVENT_DELIVERY_INTERVAL_MS = '100';
    const background = await node();
    try {
      const ids = await events(2);
      const deadline = Date.now() + 15_000;
      while (receivedIds('/background').length < 2 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(receivedIds('/background').sort()).toEqual([...ids].sort());
    } finally {
      await background.get(EventDelivery).onModuleDestroy();
      delete process.env.EVENT_DELIVERY_ENABLED;
      delete process.env.EVENT_DELIVERY_INTERVAL_MS;
    }
  });
});
