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

  describe('bulk load with the indexes rebuilt afterwards', () => {
    const indexes = (db: DataSource) =>
      db.query(
        `SELECT t.relname AS "table", pg_get_indexdef(i.indexrelid) AS definition, i.indisvalid AS valid
           FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
          WHERE t.relname IN ('order', 'order_item', 'shipment', 'shipment_order', 'shipment_item')
          ORDER BY 1, 2`,
      );

    it('loads linked rows and leaves every index as it was, valid and used', async () => {
      const db = app.get(DataSource);
      const before = await indexes(db);
      expect(
        before.filter((i: { table: string }) => i.table === 'shipment').length,
      ).toBeGreaterThan(10);
      const progress: string[] = [];
      const result = await seedWorkspace(db, {
        shipments: 3000,
        orders: 500,
        batch: 1000,
        rebuildIndexes: true,
        onProgress: ({ table, rows, total }) => progress.push(`${table} ${rows}/${total}`),
      });
      expect(await indexes(db)).toEqual(before);
      expect(progress.filter((p) => p.startsWith('index ')).at(-1)).toMatch(/^index (\d+)\/\1$/);
      const [counts] = await db.query(
        `SELECT (SELECT count(*)::int FROM shipment WHERE workspace_id = $1) AS shipments,
                (SELECT count(*)::int FROM shipment_item WHERE workspace_id = $1) AS shipment_items`,
        [result.workspaceId],
      );
      expect(counts).toEqual({ shipments: 3000, shipment_items: 1000 });
      // The rebuilt unique index still refuses a duplicate tracking number.
      await expect(
        db.query(
          `INSERT INTO shipment (workspace_id, tracking_number)
           SELECT workspace_id, tracking_number FROM shipment WHERE workspace_id = $1 LIMIT 1`,
          [result.workspaceId],
        ),
      ).rejects.toThrow(/uq_shipment_workspace_tracking_number/);
      const found = await api(app, { token: result.token! })
        .get('/shipments?trackingStatus=delivered&itemsPerPage=1')
        .expect(200);
      expect(found.body['hydra:totalItems']).toBe(500);
    });

    it('rolls back rows and indexes together when the load fails', async () => {
      const db = app.get(DataSource);
      const before = await indexes(db);
      const [{ shipments }] = await db.query('SELECT count(*)::int AS shipments FROM shipment');
      await expect(
        seedWorkspace(db, {
          shipments: 100,
          orders: 10,
          batch: 50,
          rebuildIndexes: true,
          // No such workspace: the first INSERT violates its foreign key.
          workspaceId: '00000000-0000-4000-8000-000000000000',
        }),
      ).rejects.toThrow(/foreign key/);
      expect(await indexes(db)).toEqual(before);
      expect(await db.query('SELECT count(*)::int AS shipments FROM shipment')).toEqual([
        { shipments },
      ]);
    });
  });
});
