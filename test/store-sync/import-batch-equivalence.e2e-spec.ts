import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { PrincipalLoader } from '../../src/access/principal-loader';
import { ApiError, ValidationError } from '../../src/common/errors/api-errors';
import { coalesceEvents } from '../../src/events/coalesce-events';
import type { OutboxEvent } from '../../src/events/outbox-store';
import { ResourceRegistry } from '../../src/hydra/metadata/resource-registry';
import { ResourceWriter } from '../../src/hydra/write/resource-writer';
import { Order } from '../../src/orders/order.entity';
import { OrdersService } from '../../src/orders/orders.service';
import { OrderUpdatesAtEnd } from '../../src/orders/order-updates-at-end';
import { ShipmentItemsService } from '../../src/shipment-items/shipment-items.service';
import { ShipmentsCreatedAtEnd } from '../../src/shipments/shipments-created-at-end';
import { StoreSyncRunner } from '../../src/store-sync/sync/store-sync-runner';
import { itemBody, orderBody, shipmentBody } from '../../src/store-sync/import/import-bodies';
import { planOrderImport } from '../../src/store-sync/rules/import-plan';
import { mapStoreOrder } from '../../src/store-sync/rules/order-mapping';
import type { StoreOrder } from '../../src/store-sync/store-platform';
import { connectStore } from '../../src/store-sync/store-platforms';
import { createShipment, testTrackingNumber } from '../factories/commerce.factory';
import { startShopifyFake, type ShopifyFake } from '../fakes/shopify-fake';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { shopifyWorkflow } from './store-sync-harness';
import { api } from '../support/http';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g;

/** A value with its ids and times blanked and its lists sorted (their order follows ids). */
function normalized(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted).sort()
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sorted(x)]))
        : typeof v === 'string'
          ? v.replace(UUID, '<id>').replace(TIME, '<t>')
          : v;
  return JSON.stringify(sorted(value));
}

/**
 * The import writes a share's new orders, lines and parcel items set-based (one insert per
 * table, the orders' events computed from one read before and one after; the parcels' items
 * after the last parcel, the parcels' `shipment.created` read with them after that), and
 * its parcels' order refreshes and `order.updated` once at the share's end. What it writes
 * must be what the same records give written one by one through the API, as POST /orders,
 * /order_items and /shipments would each write them: the same rows, aggregates and, record by
 * record, events (ids and times aside).
 */
describe('store import written set-based, against the same records one by one', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let fake: ShopifyFake;

  const saved = { ...process.env };

  beforeAll(async () => {
    // The shop is the fake on loopback (allow-listed for tests); webhooks need a public URL.
    Object.assign(process.env, {
      PUBLIC_URL: 'http://127.0.0.1:9',
      STORE_SYNC_ALLOWED_HOSTS: '127.0.0.1',
    });
    app = await createTestApp();
    db = app.get(DataSource);
    fake = await startShopifyFake({
      orders: { count: 30, start: new Date(Date.now() - 2 * 86_400_000), seed: 11 },
      shopDomain: (host) => host,
    });
  });
  afterAll(async () => {
    await fake.close();
    await closeTestApp(app);
    process.env = saved;
  });

  /** What a workspace holds of orders, lines, parcels, their items and links, and events. */
  async function written(workspaceId: string) {
    const rows = async (sql: string) =>
      (await db.query(sql, [workspaceId])).map(normalized).sort() as string[];
    return {
      orders: await rows(
        `SELECT order_number, email, phone_number, subtotal, total, currency, order_status_id IS NOT NULL AS has_status,
                fulfillment_status, shipments_without_tracking_count, external_source_sync_id
           FROM "order" WHERE workspace_id = $1`,
      ),
      lines: await rows(
        `SELECT product_name, product_sku, product_options, qty, price, external_product_id,
                external_source_sync_id, image_url, (SELECT order_number FROM "order" o WHERE o.id = order_id) AS order_number
           FROM order_item WHERE workspace_id = $1`,
      ),
      parcels: await rows(
        `SELECT tracking_number, origin_carrier, order_numbers, email, external_source_sync_id, tracking_status,
                (SELECT array_agg(o.order_number) FROM shipment_order so JOIN "order" o ON o.id = so.order_id
                  WHERE so.shipment_id = s.id) AS linked,
                (SELECT array_agg(oi.external_source_sync_id || ':' || si.qty) FROM shipment_item si
                   JOIN order_item oi ON oi.id = si.order_item_id WHERE si.shipment_id = s.id) AS items
           FROM shipment s WHERE workspace_id = $1`,
      ),
      // A transaction announces each record once (coalesceEvents): the import's share in one,
      // the API's calls in one each. What both come to for a subscriber is each record's
      // events coalesced: created as it ended up, or its updates merged.
      events: coalesceEvents(
        (
          (await db.query(
            `SELECT type, aggregate_type, aggregate_id, payload - 'deliveryPrediction' AS payload
               FROM outbox_event
              WHERE workspace_id = $1 AND aggregate_type IN ('order', 'order_item', 'shipment', 'shipment_item')
              ORDER BY created_at`,
            [workspaceId],
          )) as Array<{ type: string; aggregate_type: string; aggregate_id: string; payload: any }>
        ).map(
          (r) =>
            ({
              type: r.type,
              workspaceId,
              aggregateType: r.aggregate_type,
              aggregateId: r.aggregate_id,
              payload: r.payload,
            }) as OutboxEvent,
        ),
      )
        .map((e) => normalized({ type: e.type, payload: e.payload }))
        .sort(),
    };
  }

  async function storeOrders(): Promise<StoreOrder[]> {
    const client = connectStore(
      {
        platform: 'shopify',
        shopDomain: fake.shopDomain,
        baseUrl: `http://${fake.shopDomain}`,
        auth: { accessToken: fake.accessToken },
      },
      { allowedHosts: ['127.0.0.1'], timeoutMs: 30_000 },
    );
    const out: StoreOrder[] = [];
    let page = null;
    do {
      const answer = await client.listChangedOrders({
        since: new Date(Date.now() - 30 * 86_400_000),
        page,
      });
      out.push(...answer.orders);
      page = answer.next;
    } while (page);
    client.close();
    return out;
  }

  /** A store workflow of the tenant (its records' integration); run when it has credentials. */
  const workflow = (tenant: Tenant, connected: boolean) =>
    shopifyWorkflow(
      app,
      tenant,
      connected
        ? {
            shopDomain: fake.shopDomain,
            accessToken: fake.accessToken,
            webhookSecret: fake.clientSecret,
          }
        : null,
    );

  it('writes the rows, aggregates and events the records give one by one', async () => {
    const orders = await storeOrders();
    expect(orders.length).toBe(30);
    // A parcel already in each workspace carries the numbers of two store orders: their new
    // orders are linked to it (with its `shipment.updated`), in the batch as one by one.
    const carried = [orders[3], orders[4]].map((o) => mapStoreOrder(o).order.orderNumber);
    const carrier = { trackingNumber: testTrackingNumber(), orderNumbers: carried };

    const imported = await createTenant(app);
    await createShipment(app, imported, carrier);
    const importing = await workflow(imported, true);
    // The shares' batch paths ran to their end (a failure there would fall back to per-order
    // imports silently, and this comparison would pass without them).
    const finish = jest.spyOn(app.get(OrderUpdatesAtEnd), 'finish');
    // Its parcels' items too, written together at each share's end, and their creation events.
    const items = jest.spyOn(app.get(ShipmentItemsService), 'createForShipments');
    const parcels = jest.spyOn(app.get(ShipmentsCreatedAtEnd), 'finish');
    const result = await app.get(StoreSyncRunner).run(importing, 'execute');
    expect(result.outcome).toBe('ran');
    expect(finish).toHaveBeenCalled();
    expect(items).toHaveBeenCalledTimes(finish.mock.calls.length);
    expect(parcels).toHaveBeenCalledTimes(finish.mock.calls.length);
    const finished = await Promise.allSettled(
      [finish, items, parcels].flatMap((spy) => spy.mock.results.map((r) => r.value)),
    );
    expect(finished.filter((r) => r.status === 'rejected')).toEqual([]);
    for (const spy of [finish, items, parcels]) spy.mockRestore();

    // The same store orders, each record POSTed on its own with the bodies the import writes.
    const posted = await createTenant(app);
    await createShipment(app, posted, carrier);
    const workflowId = await workflow(posted, false);
    const scope = { workspaceId: posted.workspaceId, workflowId };
    const workflowIri = `/workflows/${workflowId}`;
    const http = api(app, { token: posted.token }).json();
    for (const store of orders) {
      const records = mapStoreOrder(store);
      const plan = planOrderImport(records, [], { parcelIdsFollowNumbers: false });
      const order = await http.post('/orders', orderBody(plan.order.record, scope, true));
      expect(order.status).toBe(201);
      const orderIri = `/orders/${order.body.id}`;
      const itemIds = new Map<string, string>();
      for (const item of plan.items) {
        const res = await http
          .post('/order_items', itemBody(item.record, orderIri, workflowIri, true))
          .expect(201);
        itemIds.set(item.record.externalSourceSyncId, res.body.id as string);
      }
      for (const shipment of plan.shipments) {
        await http
          .post(
            '/shipments',
            shipmentBody(shipment, scope, orderIri, workflowIri, itemIds, new Map(), true),
          )
          .expect(201);
      }
    }

    const a = await written(imported.workspaceId);
    const b = await written(posted.workspaceId);
    expect(a.orders).toHaveLength(30);
    expect(a.lines.length).toBeGreaterThan(30);
    expect(a.parcels.length).toBeGreaterThan(30);
    const linked = await db.query(
      `SELECT count(*)::int AS n FROM shipment_order so JOIN shipment s ON s.id = so.shipment_id
        WHERE s.workspace_id = $1 AND s.tracking_number = $2`,
      [imported.workspaceId, carrier.trackingNumber],
    );
    expect(linked[0].n).toBe(2);
    expect(a.orders).toEqual(b.orders);
    expect(a.lines).toEqual(b.lines);
    expect(a.parcels).toEqual(b.parcels);
    expect(a.events).toEqual(b.events);
  });

  /**
   * A batch of new orders (the import's share: OrdersService.createMany) refuses the first
   * order a one-by-one POST /orders would refuse, with the same status and violations or text.
   */
  it('refuses the order POST /orders refuses, as it refuses it', async () => {
    const cases: Array<(t: Tenant) => Array<Record<string, unknown>>> = [
      // A number used twice in the batch.
      (t) => [body(t, 'N-1'), body(t, 'N-2'), body(t, 'N-1')],
      // A store id used twice in the batch (a 400 naming externalSourceSyncId).
      (t) => [
        body(t, 'S-1', { externalSourceSyncId: 'x1' }),
        body(t, 'S-2', { externalSourceSyncId: 'x1' }),
      ],
      // A currency that is none.
      (t) => [body(t, 'C-1'), body(t, 'C-2', { currency: 'XYZ' })],
      // A constraint (class-validator) before the database's rules.
      (t) => [body(t, 'E-1'), body(t, 'E-2', { email: 'not an e-mail' }), body(t, 'E-1')],
    ];
    for (const bodies of cases) {
      const tenant = await createTenant(app);
      // Numbers and store ids already taken in the workspace.
      await api(app, { token: tenant.token })
        .json()
        .post('/orders', body(tenant, 'TAKEN', { externalSourceSyncId: 'taken' }))
        .expect(201);
      for (const batch of [
        bodies(tenant),
        [body(tenant, 'T-1'), body(tenant, 'TAKEN')],
        [body(tenant, 'T-2', { externalSourceSyncId: 'taken' })],
      ]) {
        const refused = await batchError(tenant, batch);
        expect(refused).toBeInstanceOf(ApiError);
        // The same bodies POSTed one by one (the batch wrote nothing): the first refused.
        const http = api(app, { token: tenant.token });
        let answer: { status: number; body: any } | undefined;
        for (const b of batch) {
          const res = await http.post('/orders', b);
          if (res.status !== 201) {
            answer = res;
            break;
          }
        }
        expect(answer?.status).toBe((refused as ApiError).status);
        if (refused instanceof ValidationError)
          expect(answer!.body.violations.map((v: any) => [v.propertyPath, v.message])).toEqual(
            refused.violations.map((v) => [v.propertyPath, v.message]),
          );
        else expect(answer!.body['hydra:description']).toBe((refused as ApiError).description);
        // Undo the POSTs that passed, for the next batch of the same tenant.
        await db.query(`DELETE FROM "order" WHERE workspace_id = $1 AND order_number <> 'TAKEN'`, [
          tenant.workspaceId,
        ]);
      }
    }
  });

  function body(t: Tenant, orderNumber: string, extra: Record<string, unknown> = {}) {
    return {
      workspace: `/workspaces/${t.workspaceId}`,
      orderNumber,
      email: `${orderNumber.toLowerCase()}@example.com`,
      currency: 'EUR',
      orderStatus: { code: 'paid', title: 'Paid' },
      ...extra,
    };
  }

  /** What the batch create of these bodies throws (in a transaction that writes nothing). */
  async function batchError(t: Tenant, bodies: Array<Record<string, unknown>>): Promise<unknown> {
    const principal = (await app.get(PrincipalLoader).forUser(t.userId))!;
    try {
      await db.transaction((em) =>
        app.get(ResourceWriter).createManyWithin(
          em,
          app.get(ResourceRegistry).get(Order),
          bodies.map((b) => ({ body: b, pathPrefix: '' })),
          principal,
          app.get(OrdersService),
        ),
      );
    } catch (error) {
      return error;
    }
    throw new Error('the batch was not refused');
  }
});
