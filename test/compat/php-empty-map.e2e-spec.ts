import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { createOrder } from '../factories/commerce.factory';

/**
 * PHP's json_encode writes an empty map as `[]`: the reference's PHP clients send
 * `productOptions: []`, `shippingAddress: []`, `customFields: []`. Where an object is
 * expected an empty array is an empty object; a non-empty array stays a 400.
 */
describe('an empty array where an object is expected', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  it('accepts [] for a map column, an embedded object and a JSON column', async () => {
    const order = await createOrder(app, tenant, { shippingAddress: [], customFields: [] });
    expect(order.customFields).toEqual({});
    const item = await api(app, { token: tenant.token })
      .json()
      .post('/order_items', { order: order['@id'], productName: 'Cap', productOptions: [] })
      .expect(201);
    expect(item.body.productOptions).toEqual({});
    const put = await api(app, { token: tenant.token })
      .json()
      .put(`/order_items/${item.body.id}`, { productOptions: [] })
      .expect(200);
    expect(put.body.productOptions).toEqual({});
  });

  it('still refuses a non-empty array for an object', async () => {
    const order = await createOrder(app, tenant);
    const res = await api(app, { token: tenant.token })
      .json()
      .post('/order_items', { order: order['@id'], productOptions: ['L'] })
      .expect(400);
    expect(res.body.detail).toContain('productOptions');
  });

  it('still refuses an array as the whole body', async () => {
    const order = await createOrder(app, tenant, { total: '3' });
    await api(app, { token: tenant.token }).json().put(`/orders/${order.id}`, []).expect(400);
  });
});
