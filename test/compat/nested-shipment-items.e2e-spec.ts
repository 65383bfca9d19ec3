import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import {
  createOrder,
  createOrderItem,
  createShipment,
  createShipmentItem,
  testTrackingNumber,
} from '../factories/commerce.factory';

/**
 * The WooCommerce plugin writes a shipment with its items in one request:
 * `POST /shipments {.., shipmentItems: [{orderItem, qty}]}` and
 * `PUT /shipments/{id} {shipmentItems: [{@id, orderItem, qty}, {orderItem, qty}]}`; items
 * left out go. All of it in one transaction: one bad item changes nothing.
 */
describe('shipment items written with their shipment', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  const items = (shipmentId: string) =>
    app
      .get(DataSource)
      .query('SELECT order_item_id, qty FROM shipment_item WHERE shipment_id = $1 ORDER BY qty', [
        shipmentId,
      ]);

  it('creates, changes and removes items through POST and PUT /shipments', async () => {
    const order = await createOrder(app, tenant);
    const a = await createOrderItem(app, tenant, order['@id'], { qty: 3 });
    const b = await createOrderItem(app, tenant, order['@id'], { qty: 5 });
    const http = api(app, { token: tenant.token }).json();
    const created = await http
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: testTrackingNumber(),
        orders: [order['@id']],
        shipmentItems: [
          { orderItem: a['@id'], qty: 1 },
          { orderItem: b['@id'], qty: 2 },
        ],
      })
      .expect(201);
    expect(created.body.shipmentItems).toHaveLength(2);
    expect(await items(created.body.id)).toEqual([
      { order_item_id: a.id, qty: 1 },
      { order_item_id: b.id, qty: 2 },
    ]);
    const itemOfA = (
      await app
        .get(DataSource)
        .query('SELECT id FROM shipment_item WHERE order_item_id = $1', [a.id])
    )[0].id;

    // a's item changes, b's goes, a new one for b comes.
    await http
      .put(`/shipments/${created.body.id}`, {
        shipmentItems: [
          { '@id': `/shipment_items/${itemOfA}`, orderItem: a['@id'], qty: 3 },
          { orderItem: b['@id'], qty: 4 },
        ],
      })
      .expect(200);
    expect(await items(created.body.id)).toEqual([
      { order_item_id: a.id, qty: 3 },
      { order_item_id: b.id, qty: 4 },
    ]);
    const [{ fulfillment_status }] = await app
      .get(DataSource)
      .query('SELECT fulfillment_status FROM "order" WHERE id = $1', [order.id]);
    expect(fulfillment_status).toBe('partial');
  });

  it('changes nothing when one item is refused, naming it', async () => {
    const order = await createOrder(app, tenant);
    const a = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
    const number = testTrackingNumber();
    const res = await api(app, { token: tenant.token })
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: number,
        shipmentItems: [
          { orderItem: a['@id'], qty: 1 },
          { orderItem: a['@id'], qty: 5 },
        ],
      })
      .expect(422);
    expect(res.body.violations[0].propertyPath).toBe('shipmentItems[1].qty');
    const [{ n }] = await app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM shipment WHERE tracking_number = $1', [number]);
    expect(n).toBe(0);

    // An item of another shipment cannot be changed through this one.
    const one = await createShipment(app, tenant);
    const other = await createShipment(app, tenant);
    const foreign = await createShipmentItem(app, tenant, {
      shipment: other['@id'],
      orderItem: a['@id'],
      qty: 1,
    });
    await api(app, { token: tenant.token })
      .put(one['@id'], { shipmentItems: [{ '@id': foreign['@id'], qty: 2 }] })
      .expect(422);
    expect(await items(other.id)).toEqual([{ order_item_id: a.id, qty: 1 }]);
  });

  it('keeps the order item of a shipment item PUT with only qty', async () => {
    const order = await createOrder(app, tenant);
    const a = await createOrderItem(app, tenant, order['@id'], { qty: 4 });
    const shipment = await createShipment(app, tenant);
    const item = await createShipmentItem(app, tenant, {
      shipment: shipment['@id'],
      orderItem: a['@id'],
      qty: 1,
    });
    const res = await api(app, { token: tenant.token })
      .json()
      .put(`/shipment_items/${item.id}`, { qty: 3 })
      .expect(200);
    expect(res.body).toMatchObject({ qty: 3, orderItem: a['@id'] });
  });
});
