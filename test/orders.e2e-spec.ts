import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import {
  createOrder,
  createOrderItem,
  createShipment,
  createShipmentItem,
  testOrderNumber,
} from './factories/commerce.factory';

describe('orders and order items', () => {
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

  it('creates an order with defaults, addresses and an order status', async () => {
    const order = await createOrder(app, tenant, {
      orderNumber: ' ON1 ',
      email: 'dorothy@example.com',
      phoneNumber: '+1 312 555 1212',
      subtotal: '12345678901.2345',
      total: 199.9,
      currency: 'eur',
      orderStatus: { code: 'paid', title: 'Paid' },
      shippingAddress: { city: 'Liberal', countryIso2: 'US' },
      billingAddress: { country: 'Germany' },
      fulfillmentStatus: 'fulfilled',
      shipmentsWithoutTrackingCount: 7,
    });
    expect(order).toMatchObject({
      '@type': 'Order',
      workspace,
      orderNumber: 'ON1',
      orderType: 'customer',
      subtotal: '12345678901.2345',
      total: '199.9',
      currency: 'EUR',
      fulfillmentStatus: 'not_fulfilled',
      shipmentsWithoutTrackingCount: 0,
      shipments: [],
      items: [],
      shippingAddress: { city: 'Liberal', countryIso2: 'US' },
      billingAddress: { country: 'Germany', countryIso2: 'DE' },
    });
    expect(order.orderStatus).toEqual({
      '@id': `/statuses/${order.orderStatus.id}`,
      '@type': 'Status',
      id: order.orderStatus.id,
      code: 'paid',
      title: 'Paid',
    });
    const plain = await createOrder(app, tenant, { currency: null, subtotal: null });
    expect(plain).toMatchObject({ currency: 'USD', subtotal: '0', total: '0', orderStatus: null });
    // A shipment status of the same code is another status.
    const shipment = await createShipment(app, tenant, { shipmentStatus: { code: 'paid' } });
    expect(shipment.shipmentStatus.id).not.toBe(order.orderStatus.id);
  });

  it('validates orders', async () => {
    const http = api(app, { token: tenant.token });
    const res = await http.post('/orders', {}).expect(422);
    expect(res.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(
      ['orderNumber', 'workspace'],
    );
    const bad = await http
      .post('/orders', {
        workspace,
        orderNumber: testOrderNumber(),
        orderType: 'wholesale',
        email: 'nope',
        phoneNumber: '42',
        externalSourceUrl: 'not a url',
      })
      .expect(422);
    expect(bad.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(
      ['email', 'externalSourceUrl', 'orderType', 'phoneNumber'],
    );
    const currency = await http
      .post('/orders', {
        workspace,
        orderNumber: testOrderNumber(),
        orderType: 'vendor',
        currency: 'XYZ',
      })
      .expect(422);
    expect(currency.body.violations[0].propertyPath).toBe('currency');
    await http
      .post('/orders', {
        workspace,
        orderNumber: testOrderNumber(),
        orderType: 'vendor',
        total: '1,5',
      })
      .expect(400);
    const order = await createOrder(app, tenant);
    const dup = await http
      .post('/orders', { workspace, orderNumber: order.orderNumber, orderType: 'vendor' })
      .expect(422);
    expect(dup.body.violations[0].propertyPath).toBe('orderNumber');
    const list = await http.get('/orders').expect(200);
    expect(list.body['hydra:totalItems']).toBe(1);
  });

  it('replaces an order, ignoring POST-only and computed fields', async () => {
    const order = await createOrder(app, tenant, { orderType: 'vendor', total: '5' });
    const other = await addWorkspace(app, tenant);
    const res = await api(app, { token: tenant.token })
      .put(order['@id'], {
        orderNumber: 'CHANGED',
        orderType: 'customer',
        workspace: `/workspaces/${other}`,
        fulfillmentStatus: 'fulfilled',
        total: '6.50',
        orderStatus: { code: 'shipped' },
        shippingAddress: { postcode: '10115' },
      })
      .expect(200);
    expect(res.body).toMatchObject({
      orderNumber: order.orderNumber,
      orderType: 'vendor',
      workspace,
      fulfillmentStatus: 'not_fulfilled',
      total: '6.50',
      orderStatus: { code: 'shipped' },
      shippingAddress: { postcode: '10115' },
    });
  });

  it('keeps order items: exact row totals, nested list, computed fulfilment', async () => {
    const order = await createOrder(app, tenant);
    const http = api(app, { token: tenant.token });
    const item = await createOrderItem(app, tenant, order['@id'], {
      qty: 3,
      price: '0.10',
      productSku: 'SKU-1',
      productOptions: { size: 'L', color: 'black' },
    });
    expect(item).toMatchObject({
      '@type': 'OrderItem',
      order: order['@id'],
      qty: 3,
      price: '0.10',
      rowTotal: '0.30',
      fulfilledQty: 0,
      currency: 'USD',
      productOptions: { size: 'L', color: 'black' },
    });
    const second = await createOrderItem(app, tenant, order['@id'], { qty: 1 });
    const nested = await http.get(`/orders/${order.id}/items`).expect(200);
    expect(nested.body['hydra:member'].map((i: { id: string }) => i.id)).toEqual([
      item.id,
      second.id,
    ]);
    const reread = await http.get(order['@id']).expect(200);
    expect(reread.body.items).toEqual([item['@id'], second['@id']].sort());

    await http.post('/order_items', { qty: 1 }).expect(422);
    await http.post('/order_items', { order: order['@id'], qty: -1 }).expect(422);
    await http.post('/order_items', { order: order['@id'], qty: '1' }).expect(400);
    await http
      .post('/order_items', { order: order['@id'], productOptions: { size: { eu: 40 } } })
      .expect(422);
    const other = await createTenant(app);
    await api(app, { token: other.token })
      .post('/order_items', { order: order['@id'] })
      .expect(422);
    await api(app, { token: other.token }).get(`/orders/${order.id}/items`).expect(404);
    await api(app, { token: other.token }).get(item['@id']).expect(404);

    const put = await http
      .put(item['@id'], { qty: 4, price: '2.5', order: '/orders/x' })
      .expect(200);
    expect(put.body).toMatchObject({ qty: 4, price: '2.5', rowTotal: '10.0', order: order['@id'] });
    await http.delete(second['@id']).expect(204);
    await http.get(second['@id']).expect(404);
  });

  it('computes fulfilment from shipment items and keeps it current', async () => {
    const order = await createOrder(app, tenant);
    const http = api(app, { token: tenant.token });
    const a = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
    const b = await createOrderItem(app, tenant, order['@id'], { qty: 1 });
    const status = async () => (await http.get(order['@id']).expect(200)).body.fulfillmentStatus;
    expect(await status()).toBe('not_fulfilled');

    const shipment = await createShipment(app, tenant);
    const first = await createShipmentItem(app, tenant, {
      shipment: shipment['@id'],
      orderItem: a['@id'],
      qty: 1,
    });
    expect(await status()).toBe('partial');
    await http.put(first['@id'], { orderItem: a['@id'], qty: 2 }).expect(200);
    expect(await status()).toBe('partial');
    await createShipmentItem(app, tenant, {
      shipment: shipment['@id'],
      orderItem: b['@id'],
      qty: 1,
    });
    expect(await status()).toBe('fulfilled');
    expect((await http.get(a['@id'])).body.fulfilledQty).toBe(2);

    // An order item cannot shrink below what is shipped.
    const shrink = await http.put(a['@id'], { qty: 1 }).expect(422);
    expect(shrink.body.violations[0].propertyPath).toBe('qty');
    // A new item makes the order partial again; deleting it, fulfilled again.
    const c = await createOrderItem(app, tenant, order['@id'], { qty: 1 });
    expect(await status()).toBe('partial');
    await http.delete(c['@id']).expect(204);
    expect(await status()).toBe('fulfilled');
    await http.delete(first['@id']).expect(204);
    expect(await status()).toBe('partial');
    // Deleting the shipment deletes its items.
    await http.delete(shipment['@id']).expect(204);
    expect(await status()).toBe('not_fulfilled');
    expect((await http.get(a['@id'])).body.fulfilledQty).toBe(0);
    // The shipment carried the order's items: it had been linked to the order.
    expect((await http.get(order['@id'])).body.shipments).toEqual([]);
  });

  it('links shipments and orders both ways and counts shipments without tracking', async () => {
    const http = api(app, { token: tenant.token });
    const number = testOrderNumber();
    const early = await createShipment(app, tenant, {
      trackingNumber: null,
      orderNumbers: [number],
    });
    const order = await createOrder(app, tenant, { orderNumber: number });
    expect(order.shipments).toEqual([early['@id']]);
    expect(order.shipmentsWithoutTrackingCount).toBe(1);
    expect((await http.get(early['@id'])).body.orders).toEqual([order['@id']]);

    // An order IRI on a shipment adds its number.
    const late = await createShipment(app, tenant, { orders: [order['@id']] });
    expect(late.orderNumbers).toEqual([number]);
    // An order number of the workspace links the order.
    const byNumber = await createShipment(app, tenant, { orderNumbers: [number, 'UNKNOWN'] });
    expect(byNumber.orders).toEqual([order['@id']]);
    let current = (await http.get(order['@id'])).body;
    expect(current.shipments.sort()).toEqual([early['@id'], late['@id'], byNumber['@id']].sort());
    expect(current.shipmentsWithoutTrackingCount).toBe(1);

    // Giving the early shipment a tracking number clears the count.
    await http.put(early['@id'], { trackingNumber: 'TM102EARLY1TM' }).expect(200);
    current = (await http.get(order['@id'])).body;
    expect(current.shipmentsWithoutTrackingCount).toBe(0);

    // Unlinking from the shipment side drops the number, and the other way round.
    const unlinked = await http.put(late['@id'], { orders: [] }).expect(200);
    expect(unlinked.body).toMatchObject({ orders: [], orderNumbers: [] });
    const dropped = await http.put(byNumber['@id'], { orderNumbers: ['UNKNOWN'] }).expect(200);
    expect(dropped.body.orders).toEqual([]);
    const fromOrder = await http.put(order['@id'], { shipments: [] }).expect(200);
    expect(fromOrder.body.shipments).toEqual([]);
    expect((await http.get(early['@id'])).body).toMatchObject({ orders: [], orderNumbers: [] });
    const relinked = await http.put(order['@id'], { shipments: [late['@id']] }).expect(200);
    expect(relinked.body.shipments).toEqual([late['@id']]);
    expect((await http.get(late['@id'])).body.orderNumbers).toEqual([number]);

    // Links stay inside one workspace.
    const other = await addWorkspace(app, tenant);
    const foreignOrder = (
      await http
        .post('/orders', {
          workspace: `/workspaces/${other}`,
          orderNumber: number,
          orderType: 'customer',
        })
        .expect(201)
    ).body;
    const refused = await http.put(late['@id'], { orders: [foreignOrder['@id']] }).expect(422);
    expect(refused.body.violations[0].propertyPath).toBe('orders[0]');
    await http.put(foreignOrder['@id'], { shipments: [late['@id']] }).expect(422);
    const outsider = await createTenant(app);
    await api(app, { token: outsider.token })
      .post('/shipments', {
        workspace: `/workspaces/${outsider.workspaceId}`,
        orders: [order['@id']],
      })
      .expect(422);
  });

  it('survives concurrent link changes from both sides, staying consistent', async () => {
    const http = api(app, { token: tenant.token });
    const orders = await Promise.all([1, 2, 3].map(() => createOrder(app, tenant)));
    const shipments = await Promise.all([1, 2, 3].map(() => createShipment(app, tenant)));
    const requests = [];
    for (let round = 0; round < 2; round++) {
      for (const [i, order] of orders.entries()) {
        requests.push(
          http.put(order['@id'], {
            shipments: shipments.slice(0, ((i + round) % 3) + 1).map((s) => s['@id']),
          }),
        );
      }
      for (const [i, shipment] of shipments.entries()) {
        requests.push(
          http.put(shipment['@id'], {
            orders: orders.slice(0, ((i + round + 1) % 3) + 1).map((o) => o['@id']),
          }),
        );
      }
    }
    const statuses = (await Promise.all(requests)).map((r) => r.status);
    // A deadlock between the two directions is answered 409 (retry), never 5xx.
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    const linksFromOrders = new Set<string>();
    for (const order of orders) {
      const current = (await http.get(order['@id']).expect(200)).body;
      for (const s of current.shipments) linksFromOrders.add(`${s}|${order['@id']}`);
      expect(current.shipmentsWithoutTrackingCount).toBe(0);
    }
    const linksFromShipments = new Set<string>();
    for (const shipment of shipments) {
      const current = (await http.get(shipment['@id']).expect(200)).body;
      for (const o of current.orders) linksFromShipments.add(`${shipment['@id']}|${o}`);
      const numbers = orders
        .filter((o) => current.orders.includes(o['@id']))
        .map((o) => o.orderNumber);
      expect([...current.orderNumbers].sort()).toEqual(numbers.sort());
    }
    expect([...linksFromShipments].sort()).toEqual([...linksFromOrders].sort());
  });

  it('lists orders on the nested routes and hides other tenants', async () => {
    const order = await createOrder(app, tenant, { email: 'a@example.com' });
    await createOrder(app, tenant, { email: 'b@example.com' });
    const http = api(app, { token: tenant.token });
    for (const path of [
      `/workspaces/${tenant.workspaceId}/orders?email=a@example.com`,
      `/teams/${tenant.teamId}/workspaces/${tenant.workspaceId}/orders?email=a@example.com`,
      `/orders?orderNumber=${order.orderNumber}`,
    ]) {
      const res = await http.get(path).expect(200);
      expect(res.body['hydra:member'].map((o: { id: string }) => o.id)).toEqual([order.id]);
    }
    const other = await createTenant(app);
    const foreign = api(app, { token: other.token });
    await foreign.get(order['@id']).expect(404);
    await foreign.put(order['@id'], { total: '1' }).expect(404);
    await foreign.delete(order['@id']).expect(404);
    await foreign.get(`/workspaces/${tenant.workspaceId}/orders`).expect(404);
    await http.delete(order['@id']).expect(204);
    await http.get(order['@id']).expect(404);
  });

  it('lists /orders without shipments unless groups[] asks for the whole order', async () => {
    const shipment = await createShipment(app, tenant);
    const order = await createOrder(app, tenant, { shipments: [shipment['@id']] });
    const http = api(app, { token: tenant.token });
    const member = async (path: string, json = false) => {
      const res = await (json ? http.json() : http).get(path).expect(200);
      const members = json ? res.body : res.body['hydra:member'];
      return members.find((o: { id: string }) => o.id === order.id);
    };
    const number = `orderNumber=${order.orderNumber}`;
    // The collection's own shape, as the reference's Order-Getxc: everything but shipments.
    const listed = await member(`/orders?${number}`);
    expect(listed).not.toHaveProperty('shipments');
    expect(listed).toMatchObject({ '@id': order['@id'], orderNumber: order.orderNumber });
    const whole = (await http.get(order['@id']).expect(200)).body;
    const { '@context': _context, shipments, ...rest } = whole;
    expect(shipments).toEqual([shipment['@id']]);
    expect(listed).toEqual(rest);
    expect(await member(`/orders?${number}`, true)).not.toHaveProperty('shipments');
    // The item group shows members whole; other names are ignored.
    for (const groups of ['groups%5B%5D=getOrder', 'groups%5B0%5D=other&groups%5B1%5D=getOrder']) {
      expect((await member(`/orders?${number}&${groups}`)).shipments).toEqual([shipment['@id']]);
    }
    expect(await member(`/orders?${number}&groups%5B%5D=getCarrier`)).not.toHaveProperty(
      'shipments',
    );
    // Nested routes answer whole orders, as the reference's Order-Get.
    for (const path of [
      `/workspaces/${tenant.workspaceId}/orders?${number}`,
      `/teams/${tenant.teamId}/workspaces/${tenant.workspaceId}/orders?${number}`,
    ]) {
      expect((await member(path)).shipments).toEqual([shipment['@id']]);
    }
    // CSV follows the same view.
    const csv = async (path: string) =>
      (await http.get(path).set('Accept', 'text/csv').expect(200)).text.split('\n')[0].split(',');
    expect(await csv(`/orders?${number}`)).not.toContain('shipments.0');
    expect(await csv(`/orders?${number}&groups%5B%5D=getOrder`)).toContain('shipments.0');
    // Documented: hydra:search and OpenAPI name groups[].
    const page = (await http.get(`/orders?${number}`).expect(200)).body;
    expect(page['hydra:search']['hydra:template']).toContain('groups[]');
  });

  it('counts and migrates order status references', async () => {
    const http = api(app, { token: tenant.token });
    const order = await createOrder(app, tenant, { orderStatus: { code: 'new' } });
    const check = await http
      .post('/statuses/check-references', { statusId: order.orderStatus.id })
      .expect(200);
    expect(check.body).toEqual({ refsCount: 1 });
    await http.delete(`/statuses/${order.orderStatus.id}`).expect(422);
    const target = await createOrder(app, tenant, { orderStatus: { code: 'done' } });
    const migrated = await http
      .post('/statuses/migrate-references', {
        fromStatusId: order.orderStatus.id,
        toStatusId: target.orderStatus.id,
      })
      .expect(200);
    expect(migrated.body).toEqual({ updatedRefsCount: 1 });
    await http.delete(`/statuses/${order.orderStatus.id}`).expect(204);
  });
});
