import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { EventDelivery } from '../src/events/event-delivery';
import { verifySignature } from '../src/webhooks/webhook-signature';
import {
  createOrder,
  createOrderItem,
  createShipment,
  testTrackingNumber,
} from './factories/commerce.factory';
import { Tenant, createTenant } from './factories/tenant.factory';
import { useEventApp } from './support/event-app';
import { api } from './support/http';
import type { WebhookReceiver } from './support/webhook-receiver';

const SECRET = 'whsec_shipment_events_0123456789';

interface OutboxRow {
  id: string;
  type: string;
  workspace_id: string;
  aggregate_type: string;
  aggregate_id: string;
  payload: Record<string, any>;
}

describe('shipment events in the outbox', () => {
  const env = useEventApp();
  let app: NestExpressApplication;
  let db: DataSource;
  let receiver: WebhookReceiver;
  let tenant: Tenant;
  let workspace: string;

  beforeAll(() => ({ app, db, receiver } = env));
  beforeEach(async () => {
    tenant = await createTenant(app);
    workspace = `/workspaces/${tenant.workspaceId}`;
  });

  const http = () => api(app, { token: tenant.token });
  /** The tenant's outbox, oldest first; `type` narrows it to one event name. */
  // Shipment events only: orders and items record their own (test/compat/reference-webhooks).
  const outbox = (type?: string): Promise<OutboxRow[]> =>
    db.query(
      `SELECT id, type, workspace_id, aggregate_type, aggregate_id, payload FROM outbox_event
        WHERE workspace_id = $1 AND aggregate_type = 'shipment' AND ($2::text IS NULL OR type = $2)
        ORDER BY created_at, id`,
      [tenant.workspaceId, type ?? null],
    );
  /** The shipment as GET answers in application/json. */
  const representation = async (iri: string) => (await http().json().get(iri).expect(200)).body;
  /** True when both rows were written by one transaction. */
  const sameTransaction = async (shipmentId: string, eventId: string) => {
    const [row] = await db.query(
      `SELECT (SELECT xmin::text FROM shipment WHERE id = $1) = (SELECT xmin::text FROM outbox_event WHERE id = $2) AS same`,
      [shipmentId, eventId],
    );
    return row.same as boolean;
  };

  it('POST writes one shipment.created with the shipment as the API shows it', async () => {
    const created = await http()
      .post('/shipments', {
        workspace,
        email: 'dorothy@example.com',
        orderNumbers: ['ON-1'],
        address: { city: 'Liberal', countryIso2: 'US' },
        shipmentStatus: { code: 'packed', title: 'Packed' },
      })
      .expect(201);
    const rows = await outbox();
    expect(rows).toEqual([
      {
        id: expect.any(String),
        type: 'shipment.created',
        workspace_id: tenant.workspaceId,
        aggregate_type: 'shipment',
        aggregate_id: created.body.id,
        payload: { shipment: created.body['@id'], ...(await representation(created.body['@id'])) },
      },
    ]);
    expect(rows[0].payload).toMatchObject({
      email: 'dorothy@example.com',
      workspace,
      address: { city: 'Liberal', country: 'United States of America' },
      shipmentStatus: { code: 'packed', title: 'Packed' },
    });
    expect(await sameTransaction(created.body.id, rows[0].id)).toBe(true);
  });

  it('a tracked POST also has the status change; the created payload shows the tracking', async () => {
    const shipment = await createShipment(app, tenant, {
      trackingNumber: testTrackingNumber('200'),
    });
    const rows = await outbox();
    expect(rows.map((r) => r.type).sort()).toEqual(['shipment.created', 'shipment.status_changed']);
    const [created] = await outbox('shipment.created');
    expect(created.payload).toMatchObject({
      shipment: shipment['@id'],
      trackingNumber: shipment.trackingNumber,
      trackingStatus: 'delivered',
      originCarrier: 'tm-test',
    });
  });

  it('the created payload and the response show what the create wrote after its row', async () => {
    // A number of an existing order links it after the INSERT: the payload is read again.
    const order = await createOrder(app, tenant);
    const linked = await http()
      .json()
      .post('/shipments', {
        workspace,
        trackingNumber: testTrackingNumber('102'),
        orderNumbers: [order.orderNumber],
      })
      .expect(201);
    expect(linked.body.orders).toEqual([order['@id']]);
    // Alone, the snapshot comes with the INSERT: the same as GET, tracking fields included.
    const alone = await http()
      .json()
      .post('/shipments', { workspace, trackingNumber: testTrackingNumber('200') })
      .expect(201);
    for (const body of [linked.body, alone.body]) {
      const [event] = (await outbox('shipment.created')).filter((r) => r.aggregate_id === body.id);
      const shown = await representation(`/shipments/${body.id}`);
      expect(event.payload).toEqual({ shipment: `/shipments/${body.id}`, ...shown });
      expect(body).toEqual(shown);
    }
    expect(alone.body).toMatchObject({ trackingStatus: 'delivered', orders: [] });
    // The checkpoints went in with the row (alone) or right after it (linked).
    const counts: Array<{ id: string; n: number }> = await db.query(
      `SELECT s.id, count(c.id)::int AS n FROM shipment s
         LEFT JOIN tracking_checkpoint c ON c.shipment_id = s.id
        WHERE s.id = ANY($1::uuid[]) GROUP BY s.id`,
      [[linked.body.id, alone.body.id]],
    );
    expect(counts).toHaveLength(2);
    for (const { n } of counts) expect(n).toBeGreaterThan(0);
  });

  it('a failed POST writes nothing, even when it fails after the shipment was written', async () => {
    await http().post('/shipments', { workspace, email: 'not-an-email' }).expect(422);
    await http().post('/shipments', { workspace, trackingNumber: 42 }).expect(400);
    // The nested shipment is saved (and its event recorded) before the item's quantity check
    // fails: the whole transaction rolls back.
    const order = await createOrder(app, tenant);
    const item = await createOrderItem(app, tenant, order['@id'], { qty: 1 });
    const res = await http()
      .post('/shipment_items', { shipment: { workspace }, orderItem: item['@id'], qty: 5 })
      .expect(422);
    expect(res.body.violations[0].propertyPath).toBe('qty');
    expect(await outbox()).toEqual([]);
    const shipments = await db.query('SELECT 1 FROM shipment WHERE workspace_id = $1', [
      tenant.workspaceId,
    ]);
    expect(shipments).toEqual([]);
  });

  it('a shipment created inside a shipment item POST writes shipment.created', async () => {
    const order = await createOrder(app, tenant);
    const orderItem = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
    const item = await http()
      .post('/shipment_items', {
        shipment: { workspace, email: 'item@example.com' },
        orderItem: orderItem['@id'],
        qty: 1,
      })
      .expect(201);
    const rows = await outbox('shipment.created');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'shipment.created',
      aggregate_id: item.body.shipment.split('/').pop(),
      payload: { shipment: item.body.shipment, email: 'item@example.com', workspace },
    });
    expect(await sameTransaction(rows[0].aggregate_id, rows[0].id)).toBe(true);
    // The item links it to its order in the same transaction: the created event says so, and
    // no update follows (coalesceEvents, test/indirect-events).
    expect(rows[0].payload).toMatchObject({ orders: [order['@id']] });
    expect(await outbox('shipment.updated')).toEqual([]);
  });

  it('PUT writes one shipment.updated naming the changed fields; no change, no event', async () => {
    const shipment = await createShipment(app, tenant, {
      trackingNumber: null,
      email: 'old@example.com',
      address: { city: 'Liberal' },
    });
    const before = (await outbox()).length;
    await http()
      .put(shipment['@id'], { email: 'new@example.com', address: { city: 'Wichita' } })
      .expect(200);
    const rows = (await outbox()).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'shipment.updated',
      workspace_id: tenant.workspaceId,
      aggregate_type: 'shipment',
      aggregate_id: shipment.id,
    });
    expect(rows[0].payload).toEqual({
      shipment: shipment['@id'],
      changedFields: ['email', 'address'],
      ...(await representation(shipment['@id'])),
    });
    expect(rows[0].payload).toMatchObject({
      email: 'new@example.com',
      address: { city: 'Wichita' },
    });
    expect(await sameTransaction(shipment.id, rows[0].id)).toBe(true);

    // The same values again change nothing: nothing to announce.
    await http()
      .put(shipment['@id'], { email: 'new@example.com', address: { city: 'Wichita' } })
      .expect(200);
    expect(await outbox('shipment.updated')).toHaveLength(1);
    // A failed PUT writes nothing either.
    await http().put(shipment['@id'], { email: 'broken' }).expect(422);
    expect(await outbox('shipment.updated')).toHaveLength(1);
  });

  it('a PUT of the tracking number lists the tracking fields it changed', async () => {
    const shipment = await createShipment(app, tenant, {
      trackingNumber: testTrackingNumber('102'),
    });
    const number = testTrackingNumber('200');
    await http().put(shipment['@id'], { trackingNumber: number }).expect(200);
    const [updated] = await outbox('shipment.updated');
    expect(updated.payload.changedFields).toEqual(
      expect.arrayContaining(['trackingNumber', 'trackingStatus']),
    );
    expect(updated.payload.changedFields).not.toContain('updatedAt');
    expect(updated.payload).toMatchObject({ trackingNumber: number, trackingStatus: 'delivered' });
  });

  it('DELETE writes one shipment.deleted with the shipment as it was', async () => {
    const shipment = await createShipment(app, tenant, {
      trackingNumber: null,
      email: 'gone@example.com',
    });
    const last = await representation(shipment['@id']);
    const before = (await outbox()).length;
    await http().delete(shipment['@id']).expect(204);
    const rows = (await outbox()).slice(before);
    expect(rows).toEqual([
      {
        id: expect.any(String),
        type: 'shipment.deleted',
        workspace_id: tenant.workspaceId,
        aggregate_type: 'shipment',
        aggregate_id: shipment.id,
        payload: { shipment: shipment['@id'], ...last },
      },
    ]);
    await http().get(shipment['@id']).expect(404);
    // A second DELETE is a 404 and announces nothing.
    await http().delete(shipment['@id']).expect(404);
    expect(await outbox('shipment.deleted')).toHaveLength(1);
  });

  it('delivers shipment.created to a webhook workflow, signed', async () => {
    const workflow = (
      await http()
        .post('/workflows', {
          title: 'Shipments to the ERP',
          type: 'webhook',
          workspace,
          enabled: true,
          period: 'immediately',
          credentials: {
            type: 'webhook',
            parameters: { url: receiver.url('/shipment-created') },
            secrets: { signingSecret: SECRET },
          },
        })
        .expect(201)
    ).body;
    const shipment = await createShipment(app, tenant, {
      trackingNumber: null,
      email: 'hook@example.com',
    });
    const [event] = await outbox('shipment.created');

    await app.get(EventDelivery).runUntilIdle();

    const requests = receiver.received.filter((r) => r.path === '/shipment-created');
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request.headers['x-event-type']).toBe('shipment.created');
    expect(request.headers['x-event-id']).toBe(event.id);
    expect(JSON.parse(request.body)).toEqual({
      id: event.id,
      type: 'shipment.created',
      createdAt: expect.any(String),
      workspace,
      data: event.payload,
    });
    expect(JSON.parse(request.body).data).toMatchObject({
      shipment: shipment['@id'],
      email: 'hook@example.com',
    });
    const now = Math.floor(Date.now() / 1000);
    expect(verifySignature(SECRET, String(request.headers['x-signature']), request.body, now)).toBe(
      true,
    );
    const [delivered] = await db.query('SELECT delivered_at FROM outbox_event WHERE id = $1', [
      event.id,
    ]);
    expect(delivered.delivered_at).not.toBeNull();
    const runs = await http().get(`/workflows/${workflow.id}/runs`).expect(200);
    expect(runs.body['hydra:member']).toEqual([
      expect.objectContaining({
        status: 'success',
        eventId: event.id,
        eventType: 'shipment.created',
      }),
    ]);
  });
});
