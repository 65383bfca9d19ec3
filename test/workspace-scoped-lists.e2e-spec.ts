import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { addWorkspace, createTenant, type Tenant } from './factories/tenant.factory';
import { createOrder, createOrderItem, createShipment } from './factories/commerce.factory';

/**
 * `workspace.id` on the flat lists of order items and tracking checkpoints: one workspace's
 * records (the console lists them so), within what the caller may see anyway.
 */
describe('order items and checkpoints listed per workspace', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;
  let stranger: Tenant;
  let second: string;
  const items: Record<string, string> = {};
  const checkpoints: Record<string, string> = {};

  /** An order with one item and a shipment with one checkpoint in `workspaceId`. */
  const fill = async (workspaceId: string) => {
    const scoped = { ...tenant, workspaceId };
    const order = await createOrder(app, scoped);
    items[workspaceId] = (await createOrderItem(app, scoped, order['@id']))['@id'];
    const shipment = await createShipment(app, scoped);
    const [row] = await db.query(
      `INSERT INTO tracking_checkpoint (shipment_id, workspace_id, external_id, checkpoint_date, status, info)
       VALUES ($1, $2, 'a', '2026-11-01T10:00:00Z', 'in_transit', 'Departed') RETURNING id`,
      [shipment.id, workspaceId],
    );
    checkpoints[workspaceId] = `/tracking_checkpoints/${row.id}`;
  };

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    tenant = await createTenant(app);
    stranger = await createTenant(app);
    second = await addWorkspace(app, tenant);
    await fill(tenant.workspaceId);
    await fill(second);
  });
  afterAll(() => closeTestApp(app));

  const ids = async (path: string, token = tenant.token) => {
    const res = await api(app, { token }).get(path).expect(200);
    return (res.body['hydra:member'] as Array<{ '@id': string }>).map((m) => m['@id']);
  };

  it('lists the items of one workspace, or of both without the filter', async () => {
    expect(await ids(`/order_items?workspace.id=${tenant.workspaceId}`)).toEqual([
      items[tenant.workspaceId],
    ]);
    expect(await ids(`/order_items?workspace.id=${second}`)).toEqual([items[second]]);
    expect((await ids('/order_items')).sort()).toEqual(
      [items[tenant.workspaceId], items[second]].sort(),
    );
  });

  it('lists the checkpoints of one workspace (the sandbox tracked each shipment too)', async () => {
    for (const workspaceId of [second, tenant.workspaceId]) {
      const stored = await db.query(`SELECT id FROM tracking_checkpoint WHERE workspace_id = $1`, [
        workspaceId,
      ]);
      const listed = await ids(
        `/tracking_checkpoints?workspace.id=${workspaceId}&itemsPerPage=100`,
      );
      expect(listed).toContain(checkpoints[workspaceId]);
      expect(listed.sort()).toEqual(
        stored.map((r: { id: string }) => `/tracking_checkpoints/${r.id}`).sort(),
      );
    }
  });

  it("finds nothing in another team's workspace, and nothing for a malformed id", async () => {
    for (const path of ['/order_items', '/tracking_checkpoints']) {
      expect(await ids(`${path}?workspace.id=${tenant.workspaceId}`, stranger.token)).toEqual([]);
      expect(await ids(`${path}?workspace.id=not-a-uuid`)).toEqual([]);
    }
  });

  it('documents the filter in the lists and in OpenAPI', async () => {
    const openapi = await api(app).get('/docs.json').expect(200);
    for (const path of ['/order_items', '/tracking_checkpoints']) {
      const list = await api(app, { token: tenant.token }).get(path).expect(200);
      const mapping = list.body['hydra:search']['hydra:mapping'] as Array<{ variable: string }>;
      expect(mapping.map((m) => m.variable)).toContain('workspace.id');
      const names = (openapi.body.paths[path].get.parameters as Array<{ name: string }>).map(
        (p) => p.name,
      );
      expect(names).toContain('workspace.id');
    }
  });
});
