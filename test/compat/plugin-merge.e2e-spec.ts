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

const PLUGIN_MARKER =
  'It seems that you are trying to add the same tracking number to two different shipments';

/**
 * The WooCommerce plugin's merge: editing a shipment to a tracking number another shipment
 * has is refused with the reference's wording (the plugin looks for it), then the plugin
 * posts `{workspaceId, shipmentId, trackingNumber}` to /shipments/merge ("Connect to
 * existing").
 */
describe('merging shipments as the WooCommerce plugin does', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  it('refuses a duplicate number with the wording, then merges by it', async () => {
    const number = testTrackingNumber();
    const existing = await createShipment(app, tenant, { trackingNumber: number });
    const edited = await createShipment(app, tenant, { trackingNumber: null });
    const order = await createOrder(app, tenant);
    const item = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
    await createShipmentItem(app, tenant, {
      shipment: edited['@id'],
      orderItem: item['@id'],
      qty: 1,
    });

    const refused = await api(app, { token: tenant.token })
      .json()
      .put(`/shipments/${edited.id}`, { trackingNumber: number })
      .expect(422);
    expect(refused.body.detail).toContain(PLUGIN_MARKER);

    const merged = await api(app, { token: tenant.token })
      .post('/shipments/merge', {
        workspaceId: tenant.workspaceId,
        shipmentId: edited.id,
        trackingNumber: number.toLowerCase(),
      })
      .expect(200);
    expect(merged.body).toMatchObject({ id: edited.id, trackingNumber: number.toLowerCase() });
    await api(app, { token: tenant.token }).get(existing['@id']).expect(404);
    const [{ n }] = await app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM shipment_item WHERE shipment_id = $1', [edited.id]);
    expect(n).toBe(1);
  });

  it('answers 422 when no other shipment has the number, and 404 for a foreign shipment', async () => {
    const mine = await createShipment(app, tenant);
    await api(app, { token: tenant.token })
      .post('/shipments/merge', { shipmentId: mine.id, trackingNumber: testTrackingNumber() })
      .expect(422);
    const other = await createTenant(app);
    const theirs = await createShipment(app, other);
    await api(app, { token: tenant.token })
      .post('/shipments/merge', { shipmentId: theirs.id, trackingNumber: mine.trackingNumber })
      .expect(404);
    await api(app, { token: tenant.token })
      .post('/shipments/merge', {
        workspaceId: other.workspaceId,
        shipmentId: mine.id,
        trackingNumber: 'X1',
      })
      .expect(404);
  });
});
