import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { createOrder, createOrderItem, testTrackingNumber } from '../factories/commerce.factory';

/**
 * New items given with their shipment are written together (ShipmentItemsService.createMany:
 * one lock, one quantity read, one insert, one event read): the rows, links, aggregates and
 * events are those of the items written one after the other, an item counting those before it.
 * (A transaction's events share their time and their order is not stored: compared as sets.)
 */
describe('new shipment items written together with their shipment', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
  });
  afterAll(() => closeTestApp(app));

  const http = () => api(app, { token: tenant.token }).json();
  const events = (): Promise<Array<{ type: string; aggregate_id: string; payload: any }>> =>
    db.query(
      `SELECT type, aggregate_id, payload FROM outbox_event
        WHERE workspace_id = $1 AND type LIKE ANY(ARRAY['shipment%', 'order.%'])
        ORDER BY created_at, id`,
      [tenant.workspaceId],
    );

  it('writes the rows, links and events of each item', async () => {
    const a = await createOrder(app, tenant);
    const b = await createOrder(app, tenant);
    const a1 = await createOrderItem(app, tenant, a['@id'], { qty: 3 });
    const b1 = await createOrderItem(app, tenant, b['@id'], { qty: 2 });
    const before = (await events()).length;

    // Order b is named by none but its item: the shipment is linked to it by the item.
    const res = await http()
      .post('/shipments', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        trackingNumber: testTrackingNumber(),
        orders: [a['@id']],
        shipmentItems: [
          { orderItem: a1['@id'], qty: 1 },
          { orderItem: b1['@id'], qty: 2, externalSourceSyncId: ' line-b1 ' },
          { orderItem: a1['@id'], qty: 2 },
        ],
      })
      .expect(201);
    const shipment = res.body;
    const shipmentIri = `/shipments/${shipment.id}`;

    const rows = await db.query(
      `SELECT id, order_item_id, qty, workspace_id, external_source_sync_id FROM shipment_item
        WHERE shipment_id = $1 ORDER BY qty, order_item_id`,
      [shipment.id],
    );
    expect(rows.map((r: any) => [r.order_item_id, r.qty, r.external_source_sync_id])).toEqual(
      [
        [a1.id, 1, null],
        [a1.id, 2, null],
        [b1.id, 2, 'line-b1'],
      ].sort((x, y) => Number(x[1]) - Number(y[1]) || String(x[0]).localeCompare(String(y[0]))),
    );
    expect(new Set(rows.map((r: any) => r.workspace_id))).toEqual(new Set([tenant.workspaceId]));
    expect([...shipment.orders].sort()).toEqual([a['@id'], b['@id']].sort());
    expect([...shipment.orderNumbers].sort()).toEqual([a.orderNumber, b.orderNumber].sort());
    expect([...shipment.shipmentItems].sort()).toEqual(
      rows.map((r: any) => `/shipment_items/${r.id}`).sort(),
    );
    const orders = await db.query(
      `SELECT id, fulfillment_status FROM "order" WHERE id = ANY($1::uuid[])`,
      [[a.id, b.id]],
    );
    expect(Object.fromEntries(orders.map((o: any) => [o.id, o.fulfillment_status]))).toEqual({
      [a.id]: 'fulfilled',
      [b.id]: 'fulfilled',
    });

    // A transaction's events share their time (their order is not stored): compared as sets.
    const written = (await events()).slice(before);
    const itemEvents = written.filter((e) => e.type === 'shipment_item.created');
    const byItem = (x: unknown[], y: unknown[]) =>
      `${x[0]}:${x[1]}`.localeCompare(`${y[0]}:${y[1]}`);
    expect(itemEvents.map((e) => [e.payload.orderItem, e.payload.qty]).sort(byItem)).toEqual(
      [
        [a1['@id'], 1],
        [b1['@id'], 2],
        [a1['@id'], 2],
      ].sort(byItem),
    );
    for (const e of itemEvents) {
      expect(e.payload).toMatchObject({
        '@id': `/shipment_items/${e.aggregate_id}`,
        '@type': 'ShipmentItem',
        shipment: shipmentIri,
      });
    }
    expect(
      written
        .map((e) => e.type)
        .filter((t) => t !== 'shipment.status_changed')
        .sort(),
    ).toEqual([
      'order.updated',
      'order.updated',
      'shipment.created',
      'shipment_item.created',
      'shipment_item.created',
      'shipment_item.created',
    ]);
    const created = written.find((e) => e.type === 'shipment.created')!;
    expect([...created.payload.shipmentItems].sort()).toEqual([...shipment.shipmentItems].sort());
    const updated = written.filter((e) => e.type === 'order.updated');
    expect(new Set(updated.map((e) => e.aggregate_id))).toEqual(new Set([a.id, b.id]));
    for (const e of updated) {
      expect(e.payload.cause).toBe('shipment');
      expect(e.payload.fulfillmentStatus).toBe('fulfilled');
      expect(e.payload.shipments).toEqual([shipmentIri]);
    }
  });

  it('refuses the first item a one-by-one write would refuse, and writes nothing', async () => {
    const a = await createOrder(app, tenant);
    const a1 = await createOrderItem(app, tenant, a['@id'], { qty: 3 });
    const other = await createTenant(app);
    const foreignOrder = await createOrder(app, other);
    const foreign = await createOrderItem(app, other, foreignOrder['@id'], { qty: 1 });
    const before = (await events()).length;
    const post = (shipmentItems: unknown[]) =>
      api(app, { token: tenant.token })
        .post('/shipments', {
          workspace: `/workspaces/${tenant.workspaceId}`,
          trackingNumber: testTrackingNumber(),
          shipmentItems,
        })
        .expect(422);

    // 2 + 2 > 3: the second item, counting the first.
    const over = await post([
      { orderItem: a1['@id'], qty: 2 },
      { orderItem: a1['@id'], qty: 2 },
    ]);
    expect(over.body.violations).toEqual([
      expect.objectContaining({
        propertyPath: 'shipmentItems[1].qty',
        message:
          'This value should be less than or equal to 1, the quantity of the order item left to fulfil.',
      }),
    ]);

    // An order item of another workspace at [1] is reported before the quantity at [2].
    const first = await post([
      { orderItem: a1['@id'], qty: 1 },
      { orderItem: foreign['@id'], qty: 1 },
      { orderItem: a1['@id'], qty: 5 },
    ]);
    expect(first.body.violations[0].propertyPath).toMatch(/^shipmentItems\[1\]\./);

    // A negative quantity (a constraint) at [0] before the quantity at [1].
    const constraint = await post([
      { orderItem: a1['@id'], qty: -1 },
      { orderItem: a1['@id'], qty: 9 },
    ]);
    expect(constraint.body.violations[0].propertyPath).toBe('shipmentItems[0].qty');

    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM shipment_item WHERE order_item_id = $1`,
      [a1.id],
    );
    expect(n).toBe(0);
    expect((await events()).length).toBe(before);
  });
});
