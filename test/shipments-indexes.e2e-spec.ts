import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import type { Principal } from '../src/access/principal';
import { DataProvider } from '../src/hydra/collection/data-provider';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { QueryParams } from '../src/hydra/core/query-params';
import { Order } from '../src/orders/order.entity';
import { Shipment } from '../src/shipments/shipment.entity';
import { closeTestApp, createTestApp } from './support/app';
import { Tenant, createTenant } from './factories/tenant.factory';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function seqScans(node: PlanNode, table: string): PlanNode[] {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] === table ? [node] : [];
  return own.concat(...(node.Plans ?? []).map((p) => seqScans(p, table)));
}

/**
 * The common list queries, exactly as the hydra layer builds them, must not
 * scan the shipments (or orders) table: with many workspaces in one table the
 * planner has to find one workspace's rows through an index. The table is
 * seeded with ~25k rows over 50 workspaces and analysed, so the planner's
 * choice is real (no enable_seqscan tricks).
 */
describe('shipment and order list queries use indexes', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;
  let principal: Principal;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    tenant = await createTenant(app);
    principal = {
      userId: tenant.userId,
      email: tenant.email,
      teamIds: [tenant.teamId],
      adminTeamIds: [tenant.teamId],
      workspaceIds: [tenant.workspaceId],
    };
    const [team] = await db.query(`INSERT INTO team (name) VALUES ('others') RETURNING id`);
    await db.query(
      `INSERT INTO workspace (team_id, title) SELECT $1, 'w' || g FROM generate_series(1, 49) g`,
      [team.id],
    );
    const [status] = await db.query(
      `INSERT INTO status (workspace_id, entity, code) VALUES ($1, 'shipments', 'packed') RETURNING id`,
      [tenant.workspaceId],
    );
    // Round-robin over the tenant's workspace and 49 others: 500 rows each.
    await db.query(
      `WITH ws AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n
                     FROM workspace WHERE id = $1 OR team_id = $2)
       INSERT INTO shipment (workspace_id, tracking_number, tracking_status, order_numbers, email,
                             origin_carrier, created_at, updated_at, shipped_at, last_status_update,
                             shipment_status_id, address_country_iso2, days_in_transit)
       SELECT ws.id, 'TM102' || g || 'TM',
              (ARRAY['pre_transit','in_transit','delivered','expired','no_info'])[1 + g % 5],
              ARRAY['ON-' || (g % 997)], 'c' || (g % 3000) || '@example.com',
              (ARRAY['ups','fedex','dhl','usps'])[1 + g % 4],
              now() - make_interval(mins => g), now() - make_interval(mins => g % 5000),
              now() - make_interval(hours => g % 700), now() - make_interval(mins => g % 9000),
              CASE WHEN ws.id = $1 AND g % 7 = 0 THEN $3::uuid END,
              (ARRAY['US','DE','FR'])[1 + g % 3], g % 30
         FROM generate_series(1, 25000) g JOIN ws ON ws.n = g % 50`,
      [tenant.workspaceId, team.id, status.id],
    );
    await db.query(
      `WITH ws AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n
                     FROM workspace WHERE id = $1 OR team_id = $2)
       INSERT INTO "order" (workspace_id, order_number, order_type, email, total, created_at,
                            fulfillment_status, shipments_without_tracking_count)
       SELECT ws.id, 'ON-' || g, 'customer', 'c' || (g % 3000) || '@example.com', g % 500,
              now() - make_interval(mins => g),
              (ARRAY['not_fulfilled','partial','fulfilled'])[1 + g % 3], g % 3
         FROM generate_series(1, 25000) g JOIN ws ON ws.n = g % 50`,
      [tenant.workspaceId, team.id],
    );
    await db.query('VACUUM ANALYZE shipment');
    await db.query('VACUUM ANALYZE "order"');
    await db.query('ANALYZE status');
  });
  afterAll(() => closeTestApp(app));

  async function plans(target: Function, url: string): Promise<PlanNode[]> {
    const data = app.get(DataProvider);
    const resource = app.get(ResourceRegistry).get(target);
    const query = data.buildCollectionQuery({
      resource,
      principal,
      params: QueryParams.fromUrl(url),
    });
    const count = `SELECT count(*)::int AS n ${query.fromClause()}${query.whereClause()}`;
    const countParams = [...query.params];
    const select = data.reader.select(resource, query);
    const page = `SELECT ${select} ${query.fromClause()}${query.whereClause()}${data.orderClause(resource, query)} LIMIT 30 OFFSET 0`;
    const out: PlanNode[] = [];
    for (const [sql, params] of [
      [page, query.params],
      [count, countParams],
    ] as const) {
      const [row] = await db.query(`EXPLAIN (FORMAT JSON) ${sql}`, params as unknown[]);
      out.push(row['QUERY PLAN'][0].Plan);
    }
    return out;
  }

  const shipmentLists = [
    '/shipments',
    '/shipments?page=3',
    '/shipments?trackingNumber=TM10250TM',
    '/shipments?trackingStatus=in_transit',
    '/shipments?trackingStatus[]=in_transit&trackingStatus[]=delivered',
    '/shipments?order[updatedAt]=desc',
    '/shipments?order[createdAt]=asc',
    '/shipments?createdAt[after]=2020-01-01&order[createdAt]=desc',
    '/shipments?orderNumbers=ON-5',
    '/shipments?originCarrier=ups',
    '/shipments?email=c42@example.com',
    '/shipments?shipmentStatus.code=packed',
    '/shipments?shippedAt[after]=2020-01-01&order[shippedAt]=desc',
    '/shipments?order[lastStatusUpdate]=desc',
    '/shipments?address.countryIso2=DE',
    '/shipments?daysInTransit[gte]=10',
  ];

  it.each(shipmentLists)('%s does not scan the shipment table', async (url) => {
    for (const plan of await plans(Shipment, url)) {
      expect({ url, scans: seqScans(plan, 'shipment') }).toEqual({ url, scans: [] });
    }
  });

  const orderLists = [
    '/orders',
    '/orders?fulfillmentStatus=partial',
    '/orders?fulfillmentStatus[]=partial&fulfillmentStatus[]=not_fulfilled',
    '/orders?shipmentsWithoutTrackingCount[gt]=0',
    '/orders?orderNumber=ON-100',
    '/orders?email=c42@example.com',
    '/orders?order[updatedAt]=desc',
    '/orders?order[total]=desc',
  ];

  it.each(orderLists)('%s does not scan the order table', async (url) => {
    for (const plan of await plans(Order, url)) {
      expect({ url, scans: seqScans(plan, 'order') }).toEqual({ url, scans: [] });
    }
  });
});
