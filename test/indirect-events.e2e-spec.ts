import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { EventDelivery } from '../src/events/event-delivery';
import { Clock } from '../src/tracking/clock';
import {
  createOrder,
  createOrderItem,
  createShipment,
  createShipmentItem,
  testTrackingNumber,
} from './factories/commerce.factory';
import { Tenant, createTenant } from './factories/tenant.factory';
import { useEventApp, type EventApp } from './support/event-app';
import { api } from './support/http';
import type { TestSmtp } from './support/smtp';
import type { WebhookReceiver } from './support/webhook-receiver';

interface UpdateRow {
  id: string;
  aggregate_id: string;
  payload: Record<string, any>;
}

/**
 * Updates another record's write makes: `shipment.updated` of the shipments an order's write
 * or deletion, an order item's deletion, a shipment item or a merge changed, and
 * `order.updated` of the orders a shipment's write, a shipment item or a merge changed, each
 * with its `cause`, in the write's transaction; webhooks receive them, e-mail notifications
 * never match them (src/events/README.md).
 */
describe('indirect updates in the outbox', () => {
  const env = useEventApp({ smtp: true });
  let app: NestExpressApplication;
  let db: DataSource;
  let receiver: WebhookReceiver;
  let smtp: TestSmtp;
  let tenant: Tenant;
  let workspace: string;

  beforeAll(() => ({ app, db, receiver, smtp } = env as Required<EventApp>));
  beforeEach(async () => {
    tenant = await createTenant(app);
    workspace = `/workspaces/${tenant.workspaceId}`;
    app.get(Clock).reset();
  });

  const http = () => api(app, { token: tenant.token });
  /** The tenant's `<aggregate>.updated` events, oldest first. */
  const updates = (aggregate: 'shipment' | 'order'): Promise<UpdateRow[]> =>
    db.query(
      `SELECT id, aggregate_id, payload FROM outbox_event
        WHERE workspace_id = $1 AND type = $2 ORDER BY created_at, id`,
      [tenant.workspaceId, `${aggregate}.updated`],
    );
  /** The updates written since `before` (a length of `updates`). */
  const since = async (aggregate: 'shipment' | 'order', before: number) =>
    (await updates(aggregate)).slice(before);
  const fields = (row: UpdateRow) => [...(row.payload.changedFields as string[])].sort();
  /** The shipment as GET answers in application/json. */
  const representation = async (iri: string) => (await http().json().get(iri).expect(200)).body;
  /** True when the event was written by the transaction that last wrote the shipment's row. */
  const sameTransaction = async (shipmentId: string, eventId: string) => {
    const [row] = await db.query(
      `SELECT (SELECT xmin::text FROM shipment WHERE id = $1) = (SELECT xmin::text FROM outbox_event WHERE id = $2) AS same`,
      [shipmentId, eventId],
    );
    return row.same as boolean;
  };

  describe('shipment.updated', () => {
    it('an order PUT that links and unlinks shipments: cause "order", only for them', async () => {
      const order = await createOrder(app, tenant);
      const kept = await createShipment(app, tenant, { orderNumbers: [order.orderNumber] });
      const dropped = await createShipment(app, tenant, { orderNumbers: [order.orderNumber] });
      const added = await createShipment(app, tenant);
      expect(await updates('shipment')).toEqual([]);

      await http()
        .put(order['@id'], { shipments: [kept['@id'], added['@id']] })
        .expect(200);
      const rows = await updates('shipment');
      expect(rows.map((r) => r.aggregate_id).sort()).toEqual([dropped.id, added.id].sort());
      for (const row of rows) {
        const iri = `/shipments/${row.aggregate_id}`;
        expect(fields(row)).toEqual(['orderNumbers', 'orders']);
        expect(row.payload).toEqual({
          shipment: iri,
          changedFields: row.payload.changedFields,
          cause: 'order',
          ...(await representation(iri)),
        });
        expect(await sameTransaction(row.aggregate_id, row.id)).toBe(true);
      }
      const linked = rows.find((r) => r.aggregate_id === added.id)!;
      expect(linked.payload).toMatchObject({
        orders: [order['@id']],
        orderNumbers: [order.orderNumber],
      });
      const unlinked = rows.find((r) => r.aggregate_id === dropped.id)!;
      expect(unlinked.payload).toMatchObject({ orders: [], orderNumbers: [] });

      // The same links again, or a PUT without `shipments`: no shipment changed, no event.
      await http()
        .put(order['@id'], { shipments: [added['@id'], kept['@id']], email: 'a@example.com' })
        .expect(200);
      await http().put(order['@id'], { total: '12.50' }).expect(200);
      expect(await updates('shipment')).toHaveLength(2);
    });

    it('an order POST linking the shipments that carry its number', async () => {
      const number = `ON-INDIRECT-${Date.now().toString(36)}`;
      const carrying = await createShipment(app, tenant, { orderNumbers: [number] });
      await createShipment(app, tenant, { orderNumbers: ['ON-OTHER'] });
      const order = await createOrder(app, tenant, { orderNumber: number });
      const rows = await updates('shipment');
      expect(rows).toHaveLength(1);
      expect(rows[0].aggregate_id).toBe(carrying.id);
      // It carried the number already: only the link is new.
      expect(rows[0].payload).toMatchObject({
        changedFields: ['orders'],
        cause: 'order',
        orders: [order['@id']],
      });
    });

    it('an order DELETE: its shipments lose link, number and the items of its items', async () => {
      const order = await createOrder(app, tenant);
      const orderItem = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
      const shipment = await createShipment(app, tenant, { orderNumbers: [order.orderNumber] });
      await createShipmentItem(app, tenant, {
        shipment: shipment['@id'],
        orderItem: orderItem['@id'],
        qty: 1,
      });
      const before = (await updates('shipment')).length;
      await http().delete(order['@id']).expect(204);
      const rows = await since('shipment', before);
      expect(rows).toHaveLength(1);
      expect(rows[0].aggregate_id).toBe(shipment.id);
      expect(fields(rows[0])).toEqual(['orderNumbers', 'orders', 'shipmentItems']);
      expect(rows[0].payload).toEqual({
        shipment: shipment['@id'],
        changedFields: rows[0].payload.changedFields,
        cause: 'order',
        ...(await representation(shipment['@id'])),
      });
      expect(rows[0].payload).toMatchObject({ orders: [], orderNumbers: [], shipmentItems: [] });
      // An order linked to nothing changes no shipment when deleted.
      const lonely = await createOrder(app, tenant);
      await http().delete(lonely['@id']).expect(204);
      expect(await since('shipment', before)).toHaveLength(1);
    });

    it('shipment items: their shipment, cause "shipment_item"; its own write tells its items', async () => {
      const order = await createOrder(app, tenant);
      const first = await createOrderItem(app, tenant, order['@id'], { qty: 3 });
      const second = await createOrderItem(app, tenant, order['@id'], { qty: 3 });
      const shipment = await createShipment(app, tenant);

      const item = await createShipmentItem(app, tenant, {
        shipment: shipment['@id'],
        orderItem: first['@id'],
        qty: 1,
      });
      let rows = await updates('shipment');
      expect(rows).toHaveLength(1);
      // The item links the shipment to its order.
      expect(fields(rows[0])).toEqual(['orderNumbers', 'orders', 'shipmentItems']);
      expect(rows[0].payload).toEqual({
        shipment: shipment['@id'],
        changedFields: rows[0].payload.changedFields,
        cause: 'shipment_item',
        ...(await representation(shipment['@id'])),
      });
      expect(await sameTransaction(shipment.id, rows[0].id)).toBe(true);

      // Another item of the same order: only the items change.
      const other = await createShipmentItem(app, tenant, {
        shipment: shipment['@id'],
        orderItem: second['@id'],
        qty: 1,
      });
      rows = await updates('shipment');
      expect(rows).toHaveLength(2);
      expect(rows[1].payload).toMatchObject({
        changedFields: ['shipmentItems'],
        cause: 'shipment_item',
      });

      // A quantity changes nothing the shipment shows.
      await http().put(item['@id'], { qty: 2 }).expect(200);
      expect(await updates('shipment')).toHaveLength(2);

      await http().delete(other['@id']).expect(204);
      rows = await updates('shipment');
      expect(rows).toHaveLength(3);
      expect(rows[2].payload).toMatchObject({
        changedFields: ['shipmentItems'],
        cause: 'shipment_item',
        shipmentItems: [item['@id']],
      });

      // Items written by the shipment's own PUT: its own event, no indirect one.
      await http()
        .put(shipment['@id'], {
          email: 'own@example.com',
          shipmentItems: [item['@id'], { orderItem: second['@id'], qty: 1 }],
        })
        .expect(200);
      rows = await updates('shipment');
      expect(rows).toHaveLength(4);
      expect(rows[3].payload.cause).toBeUndefined();
      expect(fields(rows[3])).toEqual(['email', 'shipmentItems']);
    });

    it('a shipment created inside a shipment item POST: one created, as committed', async () => {
      const order = await createOrder(app, tenant);
      const orderItem = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
      const item = await http()
        .post('/shipment_items', {
          shipment: { workspace, email: 'item@example.com' },
          orderItem: orderItem['@id'],
          qty: 1,
        })
        .expect(201);
      const rows: Array<{ type: string; payload: Record<string, any> }> = await db.query(
        `SELECT type, payload FROM outbox_event
          WHERE workspace_id = $1 AND aggregate_type = 'shipment' ORDER BY created_at, id`,
        [tenant.workspaceId],
      );
      // The item linked the new shipment in the same transaction: no one saw it unlinked, so
      // its shipment.created carries the link and no shipment.updated follows.
      expect(rows.map((r) => r.type)).toEqual(['shipment.created']);
      expect(rows[0].payload).toMatchObject({
        orders: [order['@id']],
        shipmentItems: [item.body['@id']],
      });
      expect(rows[0].payload).not.toHaveProperty('cause');
      expect(rows[0].payload).not.toHaveProperty('changedFields');
    });

    it('an order item DELETE: the shipments that carried it, cause "order_item"', async () => {
      const order = await createOrder(app, tenant);
      const orderItem = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
      const shipment = await createShipment(app, tenant);
      await createShipmentItem(app, tenant, {
        shipment: shipment['@id'],
        orderItem: orderItem['@id'],
        qty: 1,
      });
      const before = (await updates('shipment')).length;
      await http().delete(orderItem['@id']).expect(204);
      const rows = await since('shipment', before);
      expect(rows).toHaveLength(1);
      // The link to the order stays.
      expect(rows[0].payload).toMatchObject({
        changedFields: ['shipmentItems'],
        cause: 'order_item',
        shipmentItems: [],
        orders: [order['@id']],
      });
    });

    it('the target of a merge: one update with cause "merge", its new number included', async () => {
      const order = await createOrder(app, tenant);
      const orderItem = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
      const target = await createShipment(app, tenant, { trackingNumber: null });
      const duplicate = await createShipment(app, tenant, {
        email: 'dup@example.com',
        orderNumbers: [order.orderNumber],
      });
      await createShipmentItem(app, tenant, {
        shipment: duplicate['@id'],
        orderItem: orderItem['@id'],
        qty: 1,
      });
      const before = (await updates('shipment')).length;
      await http()
        .post('/shipments/merge', { target: target['@id'], shipments: [duplicate['@id']] })
        .expect(200);
      let rows = await since('shipment', before);
      expect(rows).toHaveLength(1);
      expect(rows[0].aggregate_id).toBe(target.id);
      expect(fields(rows[0])).toEqual(['email', 'orderNumbers', 'orders', 'shipmentItems']);
      expect(rows[0].payload).toEqual({
        shipment: target['@id'],
        changedFields: rows[0].payload.changedFields,
        cause: 'merge',
        ...(await representation(target['@id'])),
      });

      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM outbox_event WHERE aggregate_id = $1 AND type = 'shipment.deleted'`,
        [duplicate.id],
      );
      expect(n).toBe(1);

      // The plugin's form: the target takes the duplicates' number, told in the same event.
      const number = testTrackingNumber('200');
      const other = await createShipment(app, tenant, { trackingNumber: number });
      await http()
        .post('/shipments/merge', { target: target.id, trackingNumber: number })
        .expect(200);
      rows = await since('shipment', before + 1);
      expect(rows).toHaveLength(1);
      expect(rows[0].payload.cause).toBe('merge');
      expect(rows[0].payload.changedFields).toEqual(expect.arrayContaining(['trackingNumber']));
      expect(rows[0].payload).toMatchObject({ trackingNumber: number });
      await http().get(other['@id']).expect(404);
    });
  });

  describe('order.updated', () => {
    it('a shipment PUT that moves its link: both orders, cause "shipment"', async () => {
      const from = await createOrder(app, tenant);
      const to = await createOrder(app, tenant);
      const shipment = await createShipment(app, tenant, {
        trackingNumber: null,
        orderNumbers: [from.orderNumber],
      });
      const before = (await updates('order')).length;
      await http()
        .put(shipment['@id'], { orders: [to['@id']] })
        .expect(200);
      const rows = await since('order', before);
      expect(rows.map((r) => r.aggregate_id).sort()).toEqual([from.id, to.id].sort());
      for (const row of rows) {
        expect(row.payload.cause).toBe('shipment');
        expect(fields(row)).toEqual(['shipments', 'shipmentsWithoutTrackingCount']);
        const order = (await http().get(`/orders/${row.aggregate_id}`).expect(200)).body;
        expect(row.payload).toMatchObject({
          '@id': order['@id'],
          '@type': 'Order',
          shipments: order.shipments,
          shipmentsWithoutTrackingCount: order.shipmentsWithoutTrackingCount,
        });
      }
      expect(rows.find((r) => r.aggregate_id === to.id)!.payload.shipments).toEqual([
        shipment['@id'],
      ]);
      // The shipment's own update is a direct one.
      const [own] = await updates('shipment');
      expect(own.payload.cause).toBeUndefined();

      // A change the orders do not show: no order event. A tracking number: their count.
      await http()
        .put(shipment['@id'], { orders: [to['@id']], email: 'x@example.com' })
        .expect(200);
      expect(await since('order', before)).toHaveLength(2);
      await http()
        .put(shipment['@id'], { orders: [to['@id']], trackingNumber: testTrackingNumber() })
        .expect(200);
      const counted = await since('order', before + 2);
      expect(counted).toHaveLength(1);
      expect(counted[0].payload).toMatchObject({
        changedFields: ['shipmentsWithoutTrackingCount'],
        cause: 'shipment',
        shipmentsWithoutTrackingCount: 0,
      });

      await http().delete(shipment['@id']).expect(204);
      const deleted = await since('order', before + 3);
      expect(deleted).toHaveLength(1);
      expect(deleted[0].payload).toMatchObject({
        changedFields: ['shipments'],
        cause: 'shipment',
        shipments: [],
      });
    });

    it('shipment items and merges: the orders whose links or fulfilment moved', async () => {
      const order = await createOrder(app, tenant);
      const orderItem = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
      const shipment = await createShipment(app, tenant);
      const before = (await updates('order')).length;
      await createShipmentItem(app, tenant, {
        shipment: shipment['@id'],
        orderItem: orderItem['@id'],
        qty: 2,
      });
      const rows = await since('order', before);
      expect(rows).toHaveLength(1);
      expect(rows[0].aggregate_id).toBe(order.id);
      expect(fields(rows[0])).toEqual(['fulfillmentStatus', 'shipments']);
      expect(rows[0].payload).toMatchObject({
        cause: 'shipment_item',
        fulfillmentStatus: 'fulfilled',
        shipments: [shipment['@id']],
      });

      const target = await createShipment(app, tenant);
      await http()
        .post('/shipments/merge', { target: target['@id'], shipments: [shipment['@id']] })
        .expect(200);
      const merged = await since('order', before + 1);
      expect(merged).toHaveLength(1);
      expect(merged[0].payload).toMatchObject({
        changedFields: ['shipments'],
        cause: 'merge',
        shipments: [target['@id']],
      });
    });
  });

  it('order item writes: their order, cause "order_item", only when it reads differently', async () => {
    const order = await createOrder(app, tenant);
    const before = (await updates('order')).length;
    const item = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
    let rows = await since('order', before);
    expect(rows).toHaveLength(1);
    expect(rows[0].aggregate_id).toBe(order.id);
    expect(fields(rows[0])).toEqual(['items']);
    expect(rows[0].payload).toMatchObject({ cause: 'order_item', items: [item['@id']] });

    // A PUT the order does not show (the product's name) changes nothing of it.
    await http().put(item['@id'], { productName: 'Blue socks' }).expect(200);
    expect(await since('order', before + 1)).toEqual([]);
    // Shipped in full, then its quantity raised: the order's fulfilment moves.
    const shipment = await createShipment(app, tenant);
    await createShipmentItem(app, tenant, {
      shipment: shipment['@id'],
      orderItem: item['@id'],
      qty: 2,
    });
    const shipped = (await updates('order')).length;
    await http().put(item['@id'], { qty: 3 }).expect(200);
    rows = await since('order', shipped);
    expect(rows).toHaveLength(1);
    expect(rows[0].payload).toMatchObject({
      changedFields: ['fulfillmentStatus'],
      cause: 'order_item',
      fulfillmentStatus: 'partial',
    });

    await http().delete(item['@id']).expect(204);
    rows = await since('order', shipped + 1);
    expect(rows).toHaveLength(1);
    expect(fields(rows[0])).toEqual(['fulfillmentStatus', 'items']);
    expect(rows[0].payload).toMatchObject({ cause: 'order_item', items: [] });
  });

  it('a failed write rolls its indirect events back with it', async () => {
    const order = await createOrder(app, tenant);
    const shipment = await createShipment(app, tenant);
    // The order's own event is the write's last statement: make it fail there.
    await db.query(`CREATE FUNCTION indirect_spec_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.type = 'order.updated' AND NEW.payload->>'email' = 'refused@example.com' THEN
          RAISE EXCEPTION 'refused by the test';
        END IF;
        RETURN NEW;
      END $$`);
    await db.query(`CREATE TRIGGER indirect_spec_refuse BEFORE INSERT ON outbox_event
      FOR EACH ROW EXECUTE FUNCTION indirect_spec_refuse()`);
    try {
      await http()
        .put(order['@id'], { shipments: [shipment['@id']], email: 'refused@example.com' })
        .expect(500);
    } finally {
      await db.query(`DROP TRIGGER indirect_spec_refuse ON outbox_event`);
      await db.query(`DROP FUNCTION indirect_spec_refuse()`);
    }
    expect(await updates('shipment')).toEqual([]);
    expect((await representation(shipment['@id'])).orders).toEqual([]);
    // The same write, allowed: the link and its event.
    await http()
      .put(order['@id'], { shipments: [shipment['@id']], email: 'fine@example.com' })
      .expect(200);
    expect(await updates('shipment')).toHaveLength(1);
  });

  it('webhooks receive indirect updates; e-mail notifications of shipment.updated do not', async () => {
    await http()
      .post('/email_notifications', {
        workspace,
        event: 'shipment.updated',
        title: 'Updated',
        subject: 'Shipment {{ trackingNumber }} updated',
        body: '<p>Your shipment changed.</p>',
      })
      .expect(201);
    const signed = (
      await http()
        .post('/workflows', {
          title: 'Signed',
          type: 'webhook',
          workspace,
          enabled: true,
          period: 'immediately',
          credentials: {
            type: 'webhook',
            parameters: { url: receiver.url('/signed') },
            secrets: { signingSecret: 'whsec_indirect_events_0123456789' },
          },
        })
        .expect(201)
    ).body;
    const reference = (
      await http()
        .json()
        .post('/workflows', {
          type: 'webhook',
          period: 'immediately',
          title: 'Plugin',
          workspace,
          enabled: true,
          url: receiver.url('/reference'),
          authType: 'basic',
          username: 'user',
          password: 'secret',
          concurrency: 1,
          entity: 'shipments',
        })
        .expect(201)
    ).body;
    const delivery = app.get(EventDelivery);
    const customer = `customer-${Date.now().toString(36)}@example.com`;
    const shipment = await createShipment(app, tenant, { trackingNumber: null, email: customer });
    await delivery.runUntilIdle();
    receiver.received.length = 0;

    const order = await createOrder(app, tenant);
    await http()
      .put(order['@id'], { shipments: [shipment['@id']] })
      .expect(200);
    const [event] = await updates('shipment');
    expect(event.payload.cause).toBe('order');
    await delivery.runUntilIdle();

    const deliveries: Array<{ workflow_id: string | null; email_notification_id: string | null }> =
      await db.query(
        `SELECT workflow_id, email_notification_id, status FROM event_delivery
          WHERE outbox_event_id = $1`,
        [event.id],
      );
    expect(deliveries.map((d) => d.workflow_id).sort()).toEqual([signed.id, reference.id].sort());
    expect(deliveries.every((d) => d.email_notification_id === null)).toBe(true);

    const [signedBody] = receiver.received
      .filter((r) => r.path === '/signed')
      .map((r) => JSON.parse(r.body));
    expect(signedBody).toMatchObject({
      id: event.id,
      type: 'shipment.updated',
      data: {
        shipment: shipment['@id'],
        cause: 'order',
        changedFields: expect.arrayContaining(['orders']),
      },
    });
    const elements = receiver.received
      .filter((r) => r.path === '/reference')
      .flatMap((r) => JSON.parse(r.body).data);
    const change = elements.find(
      (e: Record<string, any>) => e.event === 'update' && e.data['@id'] === shipment['@id'],
    );
    expect(change).toMatchObject({
      entity: 'shipments',
      cause: 'order',
      updatedFields: expect.arrayContaining(['orders']),
      data: { '@type': 'Shipment', orders: [order['@id']] },
    });
    expect(change.data.cause).toBeUndefined();
    expect(smtp.messages.filter((m) => m.to.includes(customer))).toEqual([]);

    // The shipment's own PUT is direct: the notification matches and mails the customer.
    await http().put(shipment['@id'], { email: customer, phoneNumber: '+14155552671' }).expect(200);
    await delivery.runUntilIdle();
    const mail = await smtp.waitFor(customer, /updated/);
    expect(mail.to).toContain(customer);
  });
});
