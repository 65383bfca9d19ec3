import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { ShipmentWorkflowReferences1763900000000 } from '../migrations/1763900000000-ShipmentWorkflowReferences';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { createOrder, createOrderItem, testTrackingNumber } from './factories/commerce.factory';

describe('workflow references of shipments and shipment items', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;
  let workspace: string;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
  });
  beforeEach(async () => {
    tenant = await createTenant(app);
    workspace = `/workspaces/${tenant.workspaceId}`;
  });
  afterAll(() => closeTestApp(app));

  const http = () => api(app, { token: tenant.token });
  const workflow = async (type: string, inWorkspace = workspace, owner = tenant) =>
    (
      await api(app, { token: owner.token })
        .post('/workflows', {
          title: `${type} flow`,
          type,
          workspace: inWorkspace,
          period: 'daily',
        })
        .expect(201)
    ).body['@id'] as string;
  const shipmentCount = async () =>
    (
      await db.query('SELECT count(*)::int AS n FROM shipment WHERE workspace_id = $1', [
        tenant.workspaceId,
      ])
    )[0].n as number;

  it('stores workflows of the workspace as references, read as IRIs with the store type', async () => {
    const store = await workflow('shopify');
    const warehouse = await workflow('api');
    const created = await http()
      .post('/shipments', {
        workspace,
        trackingNumber: testTrackingNumber(),
        externalSourceIntegration: store,
        fulfillmentIntegration: warehouse,
        externalSourceIntegrationType: 'woocommerce',
      })
      .expect(201);
    expect(created.body).toMatchObject({
      externalSourceIntegration: store,
      fulfillmentIntegration: warehouse,
      externalSourceIntegrationType: 'shopify',
    });
    const [row] = await db.query(
      'SELECT external_source_integration_id, fulfillment_integration_id FROM shipment WHERE id = $1',
      [created.body.id],
    );
    expect(row).toEqual({
      external_source_integration_id: store.split('/').pop(),
      fulfillment_integration_id: warehouse.split('/').pop(),
    });
    const json = await http().json().get(created.body['@id']).expect(200);
    expect(json.body).toMatchObject({
      externalSourceIntegration: store,
      fulfillmentIntegration: warehouse,
      externalSourceIntegrationType: 'shopify',
    });
    // The type is the workflow's, read when the shipment is.
    await http()
      .put(store, { title: 'shopify flow', type: 'woocommerce', workspace, period: 'daily' })
      .expect(200);
    const after = await http().get(created.body['@id']).expect(200);
    expect(after.body.externalSourceIntegrationType).toBe('woocommerce');

    // POST only: a PUT leaves the references alone.
    const other = await workflow('shopify');
    const put = await http()
      .put(created.body['@id'], { externalSourceIntegration: other, fulfillmentIntegration: null })
      .expect(200);
    expect(put.body).toMatchObject({
      externalSourceIntegration: store,
      fulfillmentIntegration: warehouse,
    });

    const none = await http().post('/shipments', { workspace }).expect(201);
    expect(none.body).toMatchObject({
      externalSourceIntegration: null,
      fulfillmentIntegration: null,
      externalSourceIntegrationType: null,
    });
  });

  it('refuses a workflow of another workspace or tenant with a 422 naming the property', async () => {
    const second = await addWorkspace(app, tenant);
    const elsewhere = await workflow('shopify', `/workspaces/${second}`);
    const stranger = await createTenant(app);
    const foreign = await workflow('api', `/workspaces/${stranger.workspaceId}`, stranger);

    const res = await http()
      .post('/shipments', {
        workspace,
        externalSourceIntegration: elsewhere,
        fulfillmentIntegration: foreign,
      })
      .expect(422);
    expect(res.body['@type']).toBe('ConstraintViolationList');
    expect(res.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual([
      'fulfillmentIntegration',
    ]);
    const wrongWorkspace = await http()
      .post('/shipments', { workspace, externalSourceIntegration: elsewhere })
      .expect(422);
    expect(wrongWorkspace.body.violations).toEqual([
      expect.objectContaining({
        propertyPath: 'externalSourceIntegration',
        message: 'The workflow must belong to the workspace of the shipment.',
      }),
    ]);
    // Problem details for JSON clients, same violations.
    const problem = await http()
      .json()
      .post('/shipments', { workspace, fulfillmentIntegration: elsewhere })
      .expect(422);
    expect(problem.headers['content-type']).toContain('application/problem+json');
    expect(problem.body.violations[0].propertyPath).toBe('fulfillmentIntegration');
    expect(await shipmentCount()).toBe(0);

    // Shipment items: their own references and those of the shipment created with them.
    const order = await createOrder(app, tenant);
    const item = await createOrderItem(app, tenant, order['@id'], { qty: 2 });
    const own = await http()
      .post('/shipment_items', {
        shipment: { workspace },
        orderItem: item['@id'],
        fulfillmentIntegration: elsewhere,
      })
      .expect(422);
    expect(own.body.violations).toEqual([
      expect.objectContaining({
        propertyPath: 'fulfillmentIntegration',
        message: 'The workflow must belong to the workspace of the shipment item.',
      }),
    ]);
    const nested = await http()
      .post('/shipment_items', {
        shipment: { workspace, externalSourceIntegration: elsewhere },
        orderItem: item['@id'],
      })
      .expect(422);
    expect(nested.body.violations[0].propertyPath).toBe('shipment.externalSourceIntegration');
    const hidden = await http()
      .post('/shipment_items', {
        shipment: { workspace },
        orderItem: item['@id'],
        externalSourceIntegration: foreign,
      })
      .expect(422);
    expect(hidden.body.violations[0].propertyPath).toBe('externalSourceIntegration');
    expect(await shipmentCount()).toBe(0);

    // Of the right workspace, they are stored.
    const mine = await workflow('api');
    const ok = await http()
      .post('/shipment_items', {
        shipment: { workspace, externalSourceIntegration: mine },
        orderItem: item['@id'],
        externalSourceIntegration: mine,
        fulfillmentIntegration: mine,
      })
      .expect(201);
    expect(ok.body).toMatchObject({
      externalSourceIntegration: mine,
      fulfillmentIntegration: mine,
    });
    const shipment = await http().get(ok.body.shipment).expect(200);
    expect(shipment.body).toMatchObject({
      externalSourceIntegration: mine,
      externalSourceIntegrationType: 'api',
    });
  });

  it('reads null once the workflow is deleted', async () => {
    const store = await workflow('shopify');
    const order = await createOrder(app, tenant);
    const orderItem = await createOrderItem(app, tenant, order['@id'], { qty: 1 });
    const item = await http()
      .post('/shipment_items', {
        shipment: {
          workspace,
          externalSourceIntegration: store,
          fulfillmentIntegration: store,
        },
        orderItem: orderItem['@id'],
        externalSourceIntegration: store,
        fulfillmentIntegration: store,
      })
      .expect(201);
    await http().delete(store).expect(204);
    const shipment = await http().get(item.body.shipment).expect(200);
    expect(shipment.body).toMatchObject({
      externalSourceIntegration: null,
      fulfillmentIntegration: null,
      externalSourceIntegrationType: null,
    });
    const after = await http().get(item.body['@id']).expect(200);
    expect(after.body).toMatchObject({
      externalSourceIntegration: null,
      fulfillmentIntegration: null,
    });
  });

  it('migrates stored IRIs to references to existing workflows, others to null', async () => {
    const store = await workflow('shopify');
    const storeId = store.split('/').pop()!;
    const order = await createOrder(app, tenant);
    const orderItem = await createOrderItem(app, tenant, order['@id'], { qty: 1 });
    const migration = new ShipmentWorkflowReferences1763900000000();
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await migration.down(runner);
      const [s] = await runner.query(
        `INSERT INTO shipment (workspace_id, external_source_integration, fulfillment_integration,
                               external_source_integration_type)
         VALUES ($1, $2, $3, 'stale') RETURNING id`,
        [tenant.workspaceId, store.toUpperCase().replace('/WORKFLOWS/', '/workflows/'), store],
      );
      const [gone] = await runner.query(
        `INSERT INTO shipment (workspace_id, external_source_integration, fulfillment_integration)
         VALUES ($1, '/workflows/a0b97939-5aea-4b35-b7c6-64f56bff1721', 'not an iri') RETURNING id`,
        [tenant.workspaceId],
      );
      const [si] = await runner.query(
        `INSERT INTO shipment_item (workspace_id, shipment_id, order_item_id,
                                    external_source_integration, fulfillment_integration)
         VALUES ($1, $2, $3, $4, '/workflows/----------------------------------x')
         RETURNING id`,
        [tenant.workspaceId, s.id, orderItem.id, store],
      );
      await migration.up(runner);
      const shipments = await runner.query(
        `SELECT id, external_source_integration_id AS e, fulfillment_integration_id AS f
           FROM shipment WHERE id = ANY($1) ORDER BY id = $2 DESC`,
        [[s.id, gone.id], s.id],
      );
      expect(shipments).toEqual([
        { id: s.id, e: storeId, f: storeId },
        { id: gone.id, e: null, f: null },
      ]);
      const [item] = await runner.query(
        `SELECT external_source_integration_id AS e, fulfillment_integration_id AS f
           FROM shipment_item WHERE id = $1`,
        [si.id],
      );
      expect(item).toEqual({ e: storeId, f: null });
      const leftovers = await runner.query(
        `SELECT table_name, column_name FROM information_schema.columns
          WHERE table_name IN ('shipment', 'shipment_item')
            AND column_name IN ('external_source_integration', 'fulfillment_integration',
                                'external_source_integration_type')`,
      );
      expect(leftovers).toEqual([]);
      const indexes = await runner.query(
        `SELECT indexname FROM pg_indexes
          WHERE tablename IN ('shipment', 'shipment_item') AND indexdef LIKE '%integration_id%'
          ORDER BY indexname`,
      );
      expect(indexes.map((i: { indexname: string }) => i.indexname)).toEqual([
        'ix_shipment_external_source_integration',
        'ix_shipment_fulfillment_integration',
        'ix_shipment_item_external_source_integration',
        'ix_shipment_item_fulfillment_integration',
      ]);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
