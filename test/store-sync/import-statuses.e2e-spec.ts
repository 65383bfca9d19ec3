import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { StoreOrderImporter } from '../../src/store-sync/import/store-order-importer';
import type { StoreOrder } from '../../src/store-sync/store-platform';
import { workflowPrincipal } from '../../src/store-sync/sync/store-sync-principal';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { shopifyWorkflow } from './store-sync-harness';

/** A store order of `n` with the store status `code`, no lines or parcels. */
function storeOrder(n: number, code: string): StoreOrder {
  return {
    platform: 'shopify',
    id: `gid://shopify/Order/${n}`,
    number: `#${n}`,
    createdAt: new Date(),
    updatedAt: new Date(),
    email: null,
    phone: null,
    currency: 'EUR',
    subtotal: '10.00',
    total: '10.00',
    status: { code, title: code.toUpperCase() },
    shippingAddress: null,
    billingAddress: null,
    url: null,
    lines: [],
    shipments: [],
  };
}

/**
 * A first import creates the workspace's order statuses as the store names them. Created
 * inside the shares' transactions, a new status was held by the first share until it
 * committed: two shares naming two new statuses in opposite orders deadlocked, and
 * PostgreSQL's deadlock check (a second) aborted one of them, which was then imported again
 * order by order. A share's statuses are now created, and committed, before it begins.
 */
describe('order statuses of a store import', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;
  let workflowId: string;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    tenant = await createTenant(app);
    workflowId = await shopifyWorkflow(app, tenant, null);
  });
  afterAll(() => closeTestApp(app));

  it('two shares naming new statuses in opposite orders import together', async () => {
    const importer = app.get(StoreOrderImporter);
    const scope = {
      workflowId,
      workspaceId: tenant.workspaceId,
      platform: 'shopify' as const,
      principal: workflowPrincipal(tenant),
      announceInitial: false,
    };
    // Connections open for both shares, so that neither waits for one while the other runs.
    await Promise.all([1, 2, 3, 4, 5, 6].map(() => db.query('SELECT pg_sleep(0.05)')));
    // A share that fails goes back to importing its orders one by one (`import`).
    const alone = jest.spyOn(importer, 'import');
    const [a, b] = await Promise.all([
      importer.importMany(
        scope,
        [1, 2, 3, 4].map((n) => storeOrder(n, n < 3 ? 'paid' : 'open')),
      ),
      importer.importMany(
        scope,
        [5, 6, 7, 8].map((n) => storeOrder(n, n < 7 ? 'open' : 'paid')),
      ),
    ]);
    const fellBack = alone.mock.calls.length;
    alone.mockRestore();
    expect([...a, ...b].map((o) => o.problems)).toEqual(Array(8).fill([]));
    expect(fellBack).toBe(0);
    const statuses = await db.query(
      `SELECT s.code, count(o.id)::int AS orders FROM status s
         LEFT JOIN "order" o ON o.order_status_id = s.id
        WHERE s.workspace_id = $1 AND s.entity = 'orders' GROUP BY s.code ORDER BY s.code`,
      [tenant.workspaceId],
    );
    expect(statuses).toEqual([
      { code: 'open', orders: 4 },
      { code: 'paid', orders: 4 },
    ]);
  });
});
