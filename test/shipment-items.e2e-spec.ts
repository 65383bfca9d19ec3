import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import {
  createOrder,
  createOrderItem,
  createShipment,
  createShipmentItem,
  testTrackingNumber,
} from './factories/commerce.factory';

describe('shipment items', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  let workspace: string;

  beforeAll(async () => {
    app = await createTestApp();
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
    workspace = `/workspaces/${tenant.workspaceId}`;
  });
  afterAll(() => closeTestApp(app));

  const count = async (sql: string, params: unknown[]) =>
    (await app.get(DataSource).query(sql, params))[0].n as number;

  it('creates the shipment given as an object with the shipment rules', async () => {
    const order = await createOrder(app, tenant);
    const item = await createOrderItem(app, tenant, order['@id'], { qty: 3 });
    const number = testTrackingNumber();
    const fulfilment = (
      await api(app, { token: tenant.token })
        .post('/workflows', { title: 'Warehouse', type: 'api', workspace, period: 'daily' })
        .expect(201)
    ).body['@id'];
    const created = await createShipmentItem(app, tenant, {
      shipment: { workspace, trackingNumber: ` ${number} `, address: { city: 'Liberal' } },
      orderItem: item['@id'],
      qty: 2,
      externalSourceSyncId: 'li_1',
      fulfillmentIntegration: fulfilment,
    });
    expect(created).toMatchObject({
      '@type': 'ShipmentItem',
      orderItem: item['@id'],
      qty: 2,
      externalSourceSyncId: 'li_1',
      externalSourceIntegration: null,
      fulfillmentIntegration: fulfilment,
    });
    const http = api(app, { token: tenant.token });
    const shipment = (await http.get(created.shipment).expect(200)).body;
    expect(shipment).toMatchObject({
      trackingNumber: number,
      originCarrier: 'tm-test',
      address: { city: 'Liberal' },
      shipmentItems: [created['@id']],
      orders: [order['@id']],
      orderNumbers: [order.orderNumber],
    });
    expect((await http.get(item['@id'])).body.fulfilledQty).toBe(2);
  });

  it('reports the nested shipment violations under shipment, storing nothing', async () => {
    const order = await createOrder(app, tenant);
    const item = await createOrderItem(app, tenant, order['@id'], { qty: 3 });
    const http = api(app, { token: tenant.token });
    const res = await http
      .post('/shipment_items', {
        shipment: { workspace, trackingNumber: '287809468872' },
        orderItem: item['@id'],
      })
      .expect(422);
    expect(res.body.violations[0].propertyPath).toBe('shipment.trackingNumber');
    expect(res.body.suggestedCarriers.map((c: { code: string }) => c.code)).toEqual([
      'fedex',
      'purolator',
    ]);
    const blank = await http
      .post('/shipment_items', { shipment: {}, orderItem: item['@id'] })
      .expect(422);
    expect(blank.body.violations[0].propertyPath).toBe('shipment.workspace');
    // A valid shipment with a quantity too large is rolled back too.
    await http
      .post('/shipment_items', {
        shipment: { workspace, trackingNumber: testTrackingNumber() },
        orderItem: item['@id'],
        qty: 4,
      })
      .expect(422);
    expect(
      await count('SELECT count(*)::int AS n FROM shipment WHERE workspace_id = $1', [
        tenant.workspaceId,
      ]),
    ).toBe(0);
  });

  it('validates order item, quantity and shipment on create and update', async () => {
    const http = api(app, { token: tenant.token });
    const order = await createOrder(app, tenant);
    const item = await createOrderItem(app, tenant, order['@id'], { qty: 5 });
    const shipment = await createShipment(app, tenant);

    const missing = await http.post('/shipment_items', { shipment: shipment['@id'] }).expect(422);
    expect(missing.body.violations[0].propertyPath).toBe('orderItem');
    const noShipment = await http.post('/shipment_items', { orderItem: item['@id'] }).expect(422);
    expect(noShipment.body.violations[0].propertyPath).toBe('shipment');

    const zero = await createShipmentItem(app, tenant, {
      shipment: shipment['@id'],
      orderItem: item['@id'],
    });
    expect(zero.qty).toBe(0);
    await http
      .post('/shipment_items', { shipment: shipment['@id'], orderItem: item['@id'], qty: -1 })
      .expect(422);
    await http
      .post('/shipment_items', { shipment: shipment['@id'], orderItem: item['@id'], qty: 1.5 })
      .expect(400);

    const three = await createShipmentItem(app, tenant, {
      shipment: shipment['@id'],
      orderItem: item['@id'],
      qty: 3,
    });
    const tooMany = await http
      .post('/shipment_items', { shipment: shipment['@id'], orderItem: item['@id'], qty: 3 })
      .expect(422);
    expect(tooMany.body.violations[0]).toMatchObject({
      propertyPath: 'qty',
      message: expect.stringContaining('less than or equal to 2'),
    });
    // An update does not count the item's own quantity against it.
    const updated = await http
      .put(three['@id'], { orderItem: item['@id'], qty: 5, shipment: '/shipments/x' })
      .expect(200);
    expect(updated.body).toMatchObject({ qty: 5, shipment: shipment['@id'] });
    await http.put(three['@id'], { orderItem: item['@id'], qty: 6 }).expect(422);
    await http.put(three['@id'], { orderItem: null, qty: 1 }).expect(422);

    // The order item must be of the shipment's workspace.
    const other = await addWorkspace(app, tenant);
    const foreignOrder = (
      await http
        .post('/orders', {
          workspace: `/workspaces/${other}`,
          orderNumber: 'X1',
          orderType: 'customer',
        })
        .expect(201)
    ).body;
    const foreignItem = await createOrderItem(app, tenant, foreignOrder['@id'], { qty: 9 });
    const wrong = await http
      .post('/shipment_items', { shipment: shipment['@id'], orderItem: foreignItem['@id'], qty: 1 })
      .expect(422);
    expect(wrong.body.violations[0].propertyPath).toBe('orderItem');
    await http.put(three['@id'], { orderItem: foreignItem['@id'], qty: 1 }).expect(422);
    expect((await http.get(three['@id'])).body.qty).toBe(5);
  });

  it('never lets parallel requests exceed the order item quantity', async () => {
    const order = await createOrder(app, tenant);
    const item = await createOrderItem(app, tenant, order['@id'], { qty: 5 });
    const shipment = await createShipment(app, tenant);
    const http = api(app, { token: tenant.token });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        http.post(
          '/shipment_items',
          i % 2
            ? { shipment: shipment['@id'], orderItem: item['@id'], qty: 1 }
            : {
                shipment: { workspace, trackingNumber: testTrackingNumber() },
                orderItem: item['@id'],
                qty: 1,
              },
        ),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 422)).toHaveLength(7);
    expect(
      await count(
        'SELECT COALESCE(sum(qty), 0)::int AS n FROM shipment_item WHERE order_item_id = $1',
        [item.id],
      ),
    ).toBe(5);
    const current = (await http.get(order['@id'])).body;
    expect(current.fulfillmentStatus).toBe('fulfilled');
  });

  it('serves every nested route of the spec', async () => {
    const order = await createOrder(app, tenant);
    const item = await createOrderItem(app, tenant, order['@id'], { qty: 5 });
    const otherItem = await createOrderItem(app, tenant, order['@id'], { qty: 5 });
    const shipment = await createShipment(app, tenant);
    const otherShipment = await createShipment(app, tenant);
    const mine = await createShipmentItem(app, tenant, {
      shipment: shipment['@id'],
      orderItem: item['@id'],
      qty: 1,
    });
    await createShipmentItem(app, tenant, {
      shipment: otherShipment['@id'],
      orderItem: otherItem['@id'],
      qty: 1,
    });
    const http = api(app, { token: tenant.token });
    const ws = `/workspaces/${tenant.workspaceId}`;
    const team = `/teams/${tenant.teamId}`;
    for (const path of [
      `/shipments/${shipment.id}/shipment_items`,
      `/order_items/${item.id}/shipment_items`,
      `/orders/${order.id}/items/${item.id}/shipment_items`,
      `${ws}/shipments/${shipment.id}/shipment_items`,
      `${ws}/orders/${order.id}/items/${item.id}/shipment_items`,
      `${team}${ws}/shipments/${shipment.id}/shipment_items`,
      `${team}${ws}/orders/${order.id}/items/${item.id}/shipment_items`,
    ]) {
      const res = await http.get(path).expect(200);
      expect(res.body['hydra:member'].map((i: { id: string }) => i.id)).toEqual([mine.id]);
      expect(res.body['hydra:search']['hydra:template']).toContain('orderItem.order.id[]');
    }
    const all = await http.get('/shipment_items').expect(200);
    expect(all.body['hydra:totalItems']).toBe(2);

    const outsider = api(app, { token: (await createTenant(app)).token });
    await outsider.get(`/shipments/${shipment.id}/shipment_items`).expect(404);
    await outsider.get(`/orders/${order.id}/items/${item.id}/shipment_items`).expect(404);
    await outsider.get(`${team}${ws}/shipments/${shipment.id}/shipment_items`).expect(404);
    await outsider.get(mine['@id']).expect(404);
    await outsider.put(mine['@id'], { orderItem: item['@id'], qty: 0 }).expect(404);
    await outsider.delete(mine['@id']).expect(404);
    await outsider
      .post('/shipment_items', { shipment: shipment['@id'], orderItem: item['@id'] })
      .expect(422);
  });

  it('goes with its shipment or order item, and with a shipment PUT that leaves it out', async () => {
    const order = await createOrder(app, tenant);
    const item = await createOrderItem(app, tenant, order['@id'], { qty: 5 });
    const shipment = await createShipment(app, tenant);
    const http = api(app, { token: tenant.token });
    const a = await createShipmentItem(app, tenant, {
      shipment: shipment['@id'],
      orderItem: item['@id'],
      qty: 1,
    });
    const b = await createShipmentItem(app, tenant, {
      shipment: shipment['@id'],
      orderItem: item['@id'],
      qty: 1,
    });
    const kept = await http.put(shipment['@id'], { shipmentItems: [a['@id']] }).expect(200);
    expect(kept.body.shipmentItems).toEqual([a['@id']]);
    await http.get(b['@id']).expect(404);
    const other = await createShipment(app, tenant);
    const steal = await http.put(other['@id'], { shipmentItems: [a['@id']] }).expect(422);
    expect(steal.body.violations[0].propertyPath).toBe('shipmentItems[0]');

    await http.delete(item['@id']).expect(204);
    await http.get(a['@id']).expect(404);
    const item2 = await createOrderItem(app, tenant, order['@id'], { qty: 5 });
    const c = await createShipmentItem(app, tenant, {
      shipment: shipment['@id'],
      orderItem: item2['@id'],
      qty: 5,
    });
    expect((await http.get(order['@id'])).body.fulfillmentStatus).toBe('fulfilled');
    await http.delete(shipment['@id']).expect(204);
    await http.get(c['@id']).expect(404);
    expect((await http.get(order['@id'])).body.fulfillmentStatus).toBe('not_fulfilled');
  });
});
