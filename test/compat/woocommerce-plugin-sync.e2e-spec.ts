import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { testOrderNumber, testTrackingNumber } from '../factories/commerce.factory';

/**
 * The WooCommerce plugin's synchronisation, call by call with its bodies (src/Synchronization
 * of trackmage-woo-shipment-tracking): products, orders, order items, shipments with their
 * items, each write carrying `?ignoreWebhookId=<its webhook>`, and on a re-post the lookup of
 * the record already synced by the store's id (the 400 names externalSourceSyncId).
 */
describe('the WooCommerce plugin sync', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  let integration: string;
  let webhookId: string;

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app);
    const http = api(app, { token: tenant.token }).json();
    integration = `/workflows/${
      (
        await http
          .post('/workflows', {
            title: 'WooCommerce',
            type: 'integration-woocommerce',
            workspace: `/workspaces/${tenant.workspaceId}`,
            period: 'immediately',
          })
          .expect(201)
      ).body.id
    }`;
    webhookId = (
      await http
        .post('/workflows', {
          title: 'WooCommerce webhook',
          type: 'webhook',
          workspace: `/workspaces/${tenant.workspaceId}`,
          period: 'immediately',
          url: 'https://shop.example/?trackmage=callback',
          authType: 'basic',
          username: 'wp',
          password: 'secret',
          concurrency: 1,
        })
        .expect(201)
    ).body.id;
  });
  afterAll(() => closeTestApp(app));

  // Guzzle with the plugin's JSON bodies; hydra:member is read from lookups, so JSON-LD back.
  const plugin = () => api(app, { token: tenant.token, contentType: 'application/json' });
  const q = () => `?ignoreWebhookId=${webhookId}`;

  it('takes the plugin’s own workflow: a webhook with its store integration nested, no period', async () => {
    const res = await plugin()
      .post('/workflows', {
        title: 'WooCommerce orders',
        type: 'webhook',
        workspace: `/workspaces/${tenant.workspaceId}`,
        period: 'immediately',
        url: 'https://shop.example/?trackmage=callback',
        authType: 'basic',
        username: 'wp',
        password: 'secret',
        integration: {
          title: 'WooCommerce',
          type: 'integration-woocommerce',
          workspace: `/workspaces/${tenant.workspaceId}`,
          enabled: true,
        },
      })
      .expect(201);
    expect(res.body.integration).toMatchObject({
      '@type': 'Workflow',
      type: 'integration-woocommerce',
      period: 'immediately',
    });
    // A webhook still needs its period, nested or not (it decides when deliveries are due).
    const hook = await plugin()
      .post('/workflows', {
        title: 'Store',
        type: 'integration-woocommerce',
        workspace: `/workspaces/${tenant.workspaceId}`,
        period: 'immediately',
        integration: { title: 'Hook', type: 'webhook', url: 'https://shop.example/h' },
      })
      .expect(422);
    expect(hook.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toContain(
      'integration.period',
    );
  });

  it('syncs a product, an order with its items and a shipment with its items', async () => {
    // ProductSync
    const productBody = {
      team: `/teams/${tenant.teamId}`,
      externalSourceSyncId: '15',
      externalSourceIntegration: integration,
      name: 'Hoodie',
      sku: `woo-hoodie-${tenant.teamId}`,
      originUrl: 'https://shop.example/product/hoodie',
      imageUrl: null,
    };
    const product = (await plugin().post(`/products${q()}`, productBody).expect(201)).body;
    const again = await plugin().post(`/products${q()}`, productBody).expect(400);
    expect(JSON.stringify(again.body)).toContain('externalSourceSyncId');
    const foundProduct = await plugin()
      .get(
        `/products?externalSourceSyncId=15&externalSourceIntegration=${encodeURIComponent(integration)}&itemsPerPage=1`,
      )
      .expect(200);
    expect(foundProduct.body['hydra:member'][0].id).toBe(product.id);

    // OrderSync: no orderType; the store's status as {code, title}.
    const orderNumber = testOrderNumber();
    const orderBody = {
      workspace: `/workspaces/${tenant.workspaceId}`,
      externalSourceSyncId: '1001',
      externalSourceIntegration: integration,
      orderNumber,
      shippingAddress: {
        addressLine1: 'Main St 1',
        addressLine2: '',
        city: 'Berlin',
        company: '',
        countryIso2: 'DE',
        firstName: 'Ada',
        lastName: 'L',
        postcode: '10115',
        state: null,
      },
      billingAddress: [],
      orderStatus: { code: 'processing', title: 'Processing' },
    };
    const order = (await plugin().post(`/orders${q()}`, orderBody).expect(201)).body;
    expect(order.orderType).toBe('customer');
    const orderAgain = await plugin().post(`/orders${q()}`, orderBody).expect(400);
    expect(JSON.stringify(orderAgain.body)).toContain('externalSourceSyncId');
    const foundOrder = await plugin()
      .get(
        `/workspaces/${tenant.workspaceId}/orders?externalSourceSyncId=1001&externalSourceIntegration=${encodeURIComponent(integration)}&itemsPerPage=1`,
      )
      .expect(200);
    expect(foundOrder.body['hydra:member'][0].id).toBe(order.id);
    await plugin()
      .put(`/orders/${order.id}${q()}`, {
        orderStatus: { code: 'completed', title: 'Completed' },
        shippingAddress: orderBody.shippingAddress,
        billingAddress: [],
      })
      .expect(200);

    // OrderItemSync: productOptions as PHP encodes an empty map, rowTotal (read-only) sent too.
    const itemBody = {
      order: `/orders/${order.id}`,
      productName: 'Hoodie',
      productSku: productBody.sku,
      productOptions: [],
      imageUrl: null,
      qty: 2,
      price: '25',
      rowTotal: '50',
      externalProductId: '15',
      externalSourceSyncId: '3001',
      externalSourceIntegration: integration,
      product: `/products/${product.id}`,
    };
    const item = (await plugin().post(`/order_items${q()}`, itemBody).expect(201)).body;
    expect(item).toMatchObject({ rowTotal: '50', product: `/products/${product.id}` });
    const itemAgain = await plugin().post(`/order_items${q()}`, itemBody).expect(400);
    expect(JSON.stringify(itemAgain.body)).toContain('externalSourceSyncId');
    const foundItem = await plugin()
      .get(
        `/orders/${order.id}/items?externalSourceSyncId=3001&externalSourceIntegration=${encodeURIComponent(integration)}&itemsPerPage=1`,
      )
      .expect(200);
    expect(foundItem.body['hydra:member'][0].id).toBe(item.id);
    await plugin()
      .put(`/order_items/${item.id}${q()}`, {
        productName: 'Hoodie',
        productSku: productBody.sku,
        productOptions: { size: 'L' },
        externalProductId: '15',
        imageUrl: null,
        qty: 3,
        price: '25',
        rowTotal: '75',
      })
      .expect(200);

    // ShipmentSync with its items, then an edit of them.
    const trackingNumber = testTrackingNumber();
    const shipment = (
      await plugin()
        .post(`/shipments${q()}`, {
          workspace: `/workspaces/${tenant.workspaceId}`,
          trackingNumber,
          originCarrier: null,
          externalSourceSyncId: '501',
          externalSourceIntegration: integration,
          email: 'ada@example.com',
          phoneNumber: '',
          orders: [`/orders/${order.id}`],
          shipmentItems: [{ orderItem: `/order_items/${item.id}`, qty: 1 }],
        })
        .expect(201)
    ).body;
    expect(shipment.shipmentItems).toHaveLength(1);
    const shipmentItemIri = shipment.shipmentItems[0];
    await plugin()
      .put(`/shipments/${shipment.id}${q()}`, {
        trackingNumber,
        email: 'ada@example.com',
        orders: [`/orders/${order.id}`],
        shipmentItems: [{ '@id': shipmentItemIri, orderItem: `/order_items/${item.id}`, qty: 3 }],
      })
      .expect(200);
    // ShipmentItemSync edits a quantity alone.
    await plugin().put(`${shipmentItemIri}${q()}`, { qty: 2 }).expect(200);
    const read = await plugin().get(`/orders/${order.id}`).expect(200);
    expect(read.body).toMatchObject({ fulfillmentStatus: 'partial', readonly: true });
    await plugin()
      .post(`/shipments${q()}`, {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: testTrackingNumber(),
        externalSourceSyncId: '502',
        externalSourceIntegration: integration,
      })
      .expect(201);
    const byStoreId = await plugin()
      .get(
        `/workspaces/${tenant.workspaceId}/shipments?externalSourceSyncId=501&externalSourceIntegration=${encodeURIComponent(integration)}`,
      )
      .expect(200);
    expect(byStoreId.body['hydra:member'].map((s: { id: string }) => s.id)).toEqual([shipment.id]);
  });
});
