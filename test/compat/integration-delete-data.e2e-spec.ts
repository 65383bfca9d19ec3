import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import {
  createOrder,
  createOrderItem,
  createShipment,
  testOrderNumber,
  testTrackingNumber,
} from '../factories/commerce.factory';

/**
 * The WooCommerce plugin's disconnect: `DELETE /workflows/{id}?deleteData=1` removes what the
 * integration brought in (its orders, items, shipments, products) and nothing else.
 */
describe('deleting an integration with its data', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  const count = async (sql: string, params: unknown[]) =>
    (await app.get(DataSource).query(sql, params))[0].n as number;

  async function integration(): Promise<Record<string, any>> {
    const res = await api(app, { token: tenant.token })
      .post('/workflows', {
        title: 'Shop',
        type: 'integration-woocommerce',
        workspace: `/workspaces/${tenant.workspaceId}`,
        period: 'immediately',
      })
      .expect(201);
    return res.body;
  }

  async function broughtIn(iri: string) {
    const order = await createOrder(app, tenant, {
      externalSourceIntegration: iri,
      externalSourceSyncId: '1',
    });
    const item = await createOrderItem(app, tenant, order['@id'], {
      qty: 2,
      externalSourceIntegration: iri,
      externalSourceSyncId: '11',
    });
    const shipment = await createShipment(app, tenant, {
      externalSourceIntegration: iri,
      externalSourceSyncId: '21',
      shipmentItems: [{ orderItem: item['@id'], qty: 1 }],
    });
    await api(app, { token: tenant.token })
      .post('/products', {
        team: `/teams/${tenant.teamId}`,
        name: 'Synced',
        externalSourceIntegration: iri,
        externalSourceSyncId: '31',
      })
      .expect(201);
    return { order, item, shipment };
  }

  it('removes the records the integration brought in, and keeps the others', async () => {
    const shop = await integration();
    await broughtIn(shop['@id']);
    const own = await createOrder(app, tenant, { orderNumber: testOrderNumber() });
    const ownShipment = await createShipment(app, tenant, { trackingNumber: testTrackingNumber() });

    await api(app, { token: tenant.token }).delete(`${shop['@id']}?deleteData=1`).expect(204);
    const w = tenant.workspaceId;
    expect(await count('SELECT count(*)::int AS n FROM "order" WHERE workspace_id = $1', [w])).toBe(
      1,
    );
    expect(
      await count('SELECT count(*)::int AS n FROM shipment WHERE workspace_id = $1', [w]),
    ).toBe(1);
    expect(
      await count('SELECT count(*)::int AS n FROM order_item WHERE workspace_id = $1', [w]),
    ).toBe(0);
    expect(
      await count('SELECT count(*)::int AS n FROM product WHERE team_id = $1', [tenant.teamId]),
    ).toBe(0);
    await api(app, { token: tenant.token }).get(own['@id']).expect(200);
    await api(app, { token: tenant.token }).get(ownShipment['@id']).expect(200);
  });

  it('announces the records it deletes as deleted, and only the others as updated', async () => {
    const shop = await integration();
    const { order, shipment } = await broughtIn(shop['@id']);
    // A shipment of the shop's order that the shop did not bring in stays, unlinked.
    const kept = await createShipment(app, tenant, { orders: [order['@id']] });
    const [{ at }] = await app.get(DataSource).query(`SELECT clock_timestamp() AS at`);
    await api(app, { token: tenant.token }).delete(`${shop['@id']}?deleteData=1`).expect(204);
    const events: Array<{ type: string; aggregate_id: string; cause: string | null }> = await app
      .get(DataSource)
      .query(
        `SELECT type, aggregate_id, payload->>'cause' AS cause FROM outbox_event
          WHERE workspace_id = $1 AND created_at >= $2 ORDER BY type, aggregate_id`,
        [tenant.workspaceId, at],
      );
    const of = (id: string) => events.filter((e) => e.aggregate_id === id).map((e) => e.type);
    expect(of(order.id)).toEqual(['order.deleted']);
    expect(of(shipment.id)).toEqual(['shipment.deleted']);
    expect(events.filter((e) => e.aggregate_id === kept.id)).toEqual([
      { type: 'shipment.updated', aggregate_id: kept.id, cause: 'order' },
    ]);
  });

  it('keeps the data without deleteData', async () => {
    const shop = await integration();
    const { order, shipment } = await broughtIn(shop['@id']);
    await api(app, { token: tenant.token }).delete(shop['@id']).expect(204);
    await api(app, { token: tenant.token }).get(order['@id']).expect(200);
    const kept = await api(app, { token: tenant.token }).get(shipment['@id']).expect(200);
    expect(kept.body.externalSourceIntegration).toBeNull();
  });
});
