import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { createOrder, createOrderItem, testOrderNumber } from '../factories/commerce.factory';

/**
 * Orders and order items as the WooCommerce plugin syncs them: no orderType, the store's ids
 * in externalSourceSyncId / externalSourceIntegration, a re-post of a synced record answered
 * 400 naming externalSourceSyncId (the plugin then looks the record up by those two
 * filters), and product links on items.
 */
describe('orders and order items as store plugins sync them', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  let integration: string;

  beforeAll(async () => {
    app = await createTestApp();
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
    integration = (
      await api(app, { token: tenant.token })
        .post('/workflows', {
          title: 'Woo',
          type: 'api',
          workspace: `/workspaces/${tenant.workspaceId}`,
          period: 'daily',
        })
        .expect(201)
    ).body['@id'];
  });
  afterAll(() => closeTestApp(app));

  const client = () => api(app, { token: tenant.token }).json();

  it('creates an order without orderType as a customer order', async () => {
    const res = await client()
      .post('/orders', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        orderNumber: testOrderNumber(),
        externalSourceSyncId: '101',
        externalSourceIntegration: integration,
      })
      .expect(201);
    expect(res.body.orderType).toBe('customer');
    expect(res.body.readonly).toBe(true);
    const own = await createOrder(app, tenant, { orderType: 'vendor' });
    expect(own.orderType).toBe('vendor');
    expect(own.readonly).toBe(false);
    // A PUT keeps the type.
    await api(app, { token: tenant.token }).put(own['@id'], { total: '5' }).expect(200);
    const [row] = await app
      .get(DataSource)
      .query('SELECT order_type FROM "order" WHERE id = $1', [own.id]);
    expect(row.order_type).toBe('vendor');
  });

  it('refuses a second order with the same sync id and integration with a 400 naming it', async () => {
    const body = {
      workspace: `/workspaces/${tenant.workspaceId}`,
      externalSourceSyncId: '102',
      externalSourceIntegration: integration,
    };
    const first = await client()
      .post('/orders', { ...body, orderNumber: testOrderNumber() })
      .expect(201);
    const again = await client()
      .post('/orders', { ...body, orderNumber: testOrderNumber() })
      .expect(400);
    expect(JSON.stringify(again.body)).toContain('externalSourceSyncId');
    // Another integration (or none) may use the same store id.
    await client()
      .post('/orders', { ...body, externalSourceIntegration: null, orderNumber: testOrderNumber() })
      .expect(201);

    const found = await api(app, { token: tenant.token })
      .get(
        `/workspaces/${tenant.workspaceId}/orders?itemsPerPage=1&externalSourceSyncId=102&externalSourceIntegration=${encodeURIComponent(integration)}`,
      )
      .expect(200);
    expect(found.body['hydra:member'].map((o: { id: string }) => o.id)).toEqual([first.body.id]);
    const none = await api(app, { token: tenant.token })
      .get(`/orders?externalSourceSyncId=999`)
      .expect(200);
    expect(none.body['hydra:totalItems']).toBe(0);
    const count = await app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM "order" WHERE workspace_id = $1', [
        tenant.workspaceId,
      ]);
    expect(count[0].n).toBe(2);
  });

  it('refuses a duplicate order item, finds it by sync id and keeps product links', async () => {
    const order = await createOrder(app, tenant);
    const product = (
      await client()
        .post('/products', {
          team: `/teams/${tenant.teamId}`,
          name: 'Jacket',
          sku: `J-${order.id}`,
        })
        .expect(201)
    ).body;
    const variant = (
      await client()
        .post('/product_variants', {
          team: `/teams/${tenant.teamId}`,
          product: `/products/${product.id}`,
          sku: `JL-${order.id}`,
        })
        .expect(201)
    ).body;
    const body = {
      order: order['@id'],
      productName: 'Jacket',
      productOptions: [],
      qty: 2,
      price: '10.5',
      rowTotal: '21',
      externalProductId: '55',
      externalSourceSyncId: '7',
      externalSourceIntegration: integration,
      product: `/products/${product.id}`,
      productVariant: `/product_variants/${variant.id}`,
      externalProductLink: 'https://shop.example/p/55',
    };
    const created = await client().post('/order_items', body).expect(201);
    expect(created.body).toMatchObject({
      product: `/products/${product.id}`,
      productVariant: `/product_variants/${variant.id}`,
      externalProductLink: 'https://shop.example/p/55',
      productOptions: {},
    });
    const again = await client().post('/order_items', body).expect(400);
    expect(JSON.stringify(again.body)).toContain('externalSourceSyncId');

    const found = await api(app, { token: tenant.token })
      .get(
        `${order['@id']}/items?itemsPerPage=1&externalSourceSyncId=7&externalSourceIntegration=${encodeURIComponent(integration)}`,
      )
      .expect(200);
    expect(found.body['hydra:member'].map((i: { id: string }) => i.id)).toEqual([created.body.id]);
    const rows = await app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM order_item WHERE order_id = $1', [order.id]);
    expect(rows[0].n).toBe(1);
  });

  it("refuses another team's product on an order item", async () => {
    const other = await createTenant(app);
    const product = (
      await api(app, { token: other.token })
        .json()
        .post('/products', { team: `/teams/${other.teamId}`, name: 'Theirs' })
        .expect(201)
    ).body;
    const order = await createOrder(app, tenant);
    const res = await client()
      .post('/order_items', { order: order['@id'], product: `/products/${product.id}` })
      .expect((r) => expect([400, 422]).toContain(r.status));
    expect(JSON.stringify(res.body)).toContain('product');
    const item = await createOrderItem(app, tenant, order['@id']);
    expect(item.product).toBeNull();
  });
});
