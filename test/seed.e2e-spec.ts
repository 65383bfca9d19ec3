import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { seedWorkspace } from '../src/seed/bulk-seeder';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('bulk seeder (npm run cli -- seed)', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => closeTestApp(app));

  it('fills a new workspace with linked orders, items and shipments, reachable with its token', async () => {
    const db = app.get(DataSource);
    const progress: number[] = [];
    const result = await seedWorkspace(db, {
      shipments: 2500,
      orders: 600,
      batch: 1000,
      onProgress: ({ table, rows }) => table === 'shipment' && progress.push(rows),
    });
    expect(progress.sort((a, b) => a - b).at(-1)).toBe(2500);
    const [counts] = await db.query(
      `SELECT (SELECT count(*)::int FROM shipment WHERE workspace_id = $1) AS shipments,
              (SELECT count(*)::int FROM "order" WHERE workspace_id = $1) AS orders,
              (SELECT count(*)::int FROM order_item WHERE workspace_id = $1) AS items,
              (SELECT count(*)::int FROM shipment_item WHERE workspace_id = $1) AS shipment_items,
              (SELECT count(DISTINCT tracking_number)::int FROM shipment WHERE workspace_id = $1) AS numbers`,
      [result.workspaceId],
    );
    expect(counts).toEqual({
      shipments: 2500,
      orders: 600,
      items: 1200,
      shipment_items: 1200,
      numbers: 2500,
    });
    const list = await api(app, { token: result.token! })
      .get('/shipments?trackingStatus=delivered')
      .expect(200);
    expect(list.body['hydra:totalItems']).toBeGreaterThan(300);
    const orders = await api(app, { token: result.token! })
      .get('/orders?fulfillmentStatus=fulfilled')
      .expect(200);
    expect(orders.body['hydra:totalItems']).toBe(600);
  });
});
