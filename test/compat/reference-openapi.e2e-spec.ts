import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from '../support/app';
import { api, JSON_LD, PLAIN_JSON } from '../support/http';
import { ReferenceResponses } from '../support/reference-openapi';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import {
  createOrder,
  createOrderItem,
  createShipment,
  createShipmentItem,
} from '../factories/commerce.factory';

/**
 * Every answer of the reference's main resources validates against the reference OpenAPI's
 * response schema of that operation, in JSON-LD and in JSON: what its generated clients
 * (the PHP SDK's models) deserialize.
 */
describe('responses against the reference OpenAPI', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  let reference: ReferenceResponses;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    reference = new ReferenceResponses();
    app = await createTestApp();
    tenant = await createTenant(app);
    const http = api(app, { token: tenant.token });
    // The factory names teams after an e-mail; the reference allows letters, digits, - and &.
    await http.put(`/teams/${tenant.teamId}`, { name: 'Acme & Co' }).expect(200);
    const order = await createOrder(app, tenant, {
      orderStatus: { code: 'paid', title: 'Paid' },
      shippingAddress: { city: 'Berlin', countryIso2: 'DE' },
    });
    const item = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
    const shipment = await createShipment(app, tenant, { email: 'buyer@example.com' });
    const shipmentItem = await createShipmentItem(app, tenant, {
      shipment: shipment['@id'],
      orderItem: item['@id'],
      qty: 1,
    });
    const workflow = await http
      .post('/workflows', {
        type: 'webhook',
        period: 'immediately',
        title: 'Hook',
        workspace: `/workspaces/${tenant.workspaceId}`,
        url: 'https://hooks.example.com/in',
        authType: 'bearer',
        password: 'token',
      })
      .expect(201);
    const note = await http
      .post('/notes', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        entity: 'shipments',
        entityId: shipment.id,
        comment: 'Checked',
      })
      .expect(201);
    const members = await http.get(`/team_members?team.id=${tenant.teamId}`).expect(200);
    const product = await http
      .post('/products', { team: `/teams/${tenant.teamId}`, name: 'Jacket', sku: `J-${order.id}` })
      .expect(201);
    // The builder answers every member of the reference's Builder, given or not.
    const page = await http
      .post('/tracking_pages', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        title: 'Track',
        subdomain: `ref-${order.id.slice(0, 8)}`,
        builder: { card: { backgroundColor: '#ffffff' }, seoTitle: 'Track' },
      })
      .expect(201);
    Object.assign(ids, {
      tracking_pages: page.body.id,
      orders: order.id,
      order_items: item.id,
      shipments: shipment.id,
      shipment_items: shipmentItem.id,
      workflows: workflow.body.id,
      notes: note.body.id,
      team_members: members.body['hydra:member'][0].id,
      teams: tenant.teamId,
      workspaces: tenant.workspaceId,
      users: tenant.userId,
      products: product.body.id,
      statuses: order.orderStatus.id,
    });
  });
  afterAll(() => closeTestApp(app));

  const ITEMS = [
    'shipments',
    'orders',
    'order_items',
    'shipment_items',
    'workflows',
    'notes',
    'teams',
    'team_members',
    'workspaces',
    'users',
    'products',
    'statuses',
    'tracking_pages',
  ];
  const COLLECTIONS = [
    'shipments',
    'orders',
    'order_items',
    'shipment_items',
    'workflows',
    'notes',
    'teams',
    'team_members',
    'workspaces',
    'products',
    'statuses',
    'tracking_pages',
  ];

  describe.each([JSON_LD, PLAIN_JSON])('in %s', (type) => {
    it.each(ITEMS)('GET /%s/{id}', async (collection) => {
      const res = await api(app, { token: tenant.token, accept: type })
        .get(`/${collection}/${ids[collection]}`)
        .expect(200);
      expect(reference.problems('get', `/${collection}/{id}`, '200', type, res.body)).toEqual([]);
    });

    it.each(COLLECTIONS)('GET /%s', async (collection) => {
      const res = await api(app, { token: tenant.token, accept: type })
        .get(`/${collection}`)
        .expect(200);
      expect(reference.problems('get', `/${collection}`, '200', type, res.body)).toEqual([]);
    });
  });
});
