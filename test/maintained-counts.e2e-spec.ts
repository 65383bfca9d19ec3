import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import type { Principal } from '../src/access/principal';
import { DataProvider } from '../src/hydra/collection/data-provider';
import { MaintainedCountSweeper } from '../src/hydra/collection/maintained-count-sweeper';
import { lastPage } from '../src/hydra/query/pagination';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { QueryParams } from '../src/hydra/core/query-params';
import { seedWorkspace } from '../src/seed/bulk-seeder';
import { Shipment } from '../src/shipments/shipment.entity';
import { Clock } from '../src/tracking/clock';
import { TrackingRefresher } from '../src/tracking/refresh/tracking-refresher';
import { testTrackingNumber } from './factories/commerce.factory';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

/** Sandbox prefixes with different outcomes, so tracking on write sets several statuses. */
const PREFIXES = ['102', '200', '204', '418', '410', '202'];
const CARRIERS = ['ups', 'fedex', 'dhl'];

/**
 * hydra:totalItems of the common shipment lists comes from counts kept by statement-level
 * triggers (maintained-counts.sql.ts). These tests write in every way the application does,
 * concurrently, and then compare every maintained count with count(*).
 */
describe('maintained counts of shipments', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let tenant: Tenant;
  let second: string;
  let http: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    tenant = await createTenant(app);
    second = await addWorkspace(app, tenant);
    http = api(app, { token: tenant.token });
  });
  afterAll(async () => {
    app.get(Clock).reset();
    await closeTestApp(app);
  });

  const workspaces = () => [tenant.workspaceId, second];

  /** Every maintained count of the tenant's workspaces, and the same counted with count(*). */
  async function bothCounts(): Promise<{
    kept: Record<string, number>;
    real: Record<string, number>;
  }> {
    const kept: Array<{ key: string; n: string }> = await db.query(
      `SELECT scope_id || '/' || dimension || '=' || value AS key, sum(n) AS n FROM maintained_count
        WHERE table_name = 'shipment' AND scope_id = ANY($1::uuid[])
        GROUP BY 1 HAVING sum(n) <> 0`,
      [workspaces()],
    );
    const real: Array<{ key: string; n: string }> = await db.query(
      `SELECT s.workspace_id || '/' || k.dimension || '=' || k.value AS key, count(*) AS n
         FROM shipment s CROSS JOIN LATERAL (VALUES ('', ''), ('tracking_status', s.tracking_status),
              ('origin_carrier', s.origin_carrier), ('attention', s.attention)) k(dimension, value)
        WHERE s.workspace_id = ANY($1::uuid[]) AND k.value IS NOT NULL
        GROUP BY 1`,
      [workspaces()],
    );
    const asMap = (rows: Array<{ key: string; n: string }>) =>
      Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]));
    return { kept: asMap(kept), real: asMap(real) };
  }

  async function post(body: Record<string, unknown>, workspace = tenant.workspaceId) {
    const res = await http.post('/shipments', { workspace: `/workspaces/${workspace}`, ...body });
    expect(res.status).toBe(201);
    return res.body['@id'] as string;
  }

  const randomBody = (i: number) =>
    i % 3 === 0
      ? { trackingNumber: null, originCarrier: CARRIERS[i % CARRIERS.length] }
      : { trackingNumber: testTrackingNumber(PREFIXES[i % PREFIXES.length]) };

  it('stay equal to count(*) under concurrent posts, puts, deletes, bulk loads and refreshes', async () => {
    const first = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post(randomBody(i), workspaces()[i % 2])),
    );
    const refresher = app.get(TrackingRefresher);
    app.get(Clock).set(new Date(Date.now() + 30 * 86_400_000));
    const writes: Array<Promise<unknown>> = [
      // New shipments through the API, in both workspaces.
      ...Array.from({ length: 40 }, (_, i) => post(randomBody(i + 1), workspaces()[i % 2])),
      // Replacements: a new number (status tracked again, carrier identified again) or carrier.
      ...first
        .slice(0, 10)
        .map((iri, i) =>
          http
            .put(
              iri,
              i % 2 ? { trackingNumber: testTrackingNumber(PREFIXES[i]) } : { email: 'a@b.co' },
            )
            .then((res) => expect(res.status).toBe(200)),
        ),
      ...first
        .slice(10, 20)
        .map((iri) => http.delete(iri).then((res) => expect(res.status).toBe(204))),
      // Refresh rounds (status changes of many shipments per statement) meanwhile.
      (async () => {
        for (let i = 0; i < 4; i++) await refresher.runBatch(25);
      })(),
      // A bulk load (multi-row INSERT ... SELECT statements) into the second workspace.
      seedWorkspace(db, {
        shipments: 120,
        orders: 0,
        batch: 40,
        workspaceId: second,
        rebuildIndexes: false,
      }),
      // Set-based changes as jobs do them: a status flip, a carrier change, a move, a delete.
      db.query(
        `UPDATE shipment SET tracking_status = 'delivered' WHERE workspace_id = $1 AND tracking_status = 'in_transit'`,
        [tenant.workspaceId],
      ),
      db.query(
        `UPDATE shipment SET origin_carrier = 'dhl', tracking_status = NULL
          WHERE id IN (SELECT id FROM shipment WHERE workspace_id = $1 AND origin_carrier = 'ups' LIMIT 3)`,
        [second],
      ),
      db.query(
        `UPDATE shipment SET workspace_id = $2
          WHERE id IN (SELECT id FROM shipment WHERE workspace_id = $1 AND tracking_number IS NULL LIMIT 2)`,
        [tenant.workspaceId, second],
      ),
      db.query(
        `DELETE FROM shipment WHERE id IN (SELECT id FROM shipment
          WHERE workspace_id = $1 AND NOT (id = ANY($2::uuid[])) ORDER BY created_at LIMIT 5)`,
        [second, first.map((iri) => iri.split('/').pop())],
      ),
    ];
    await Promise.all(writes);
    const { kept, real } = await bothCounts();
    expect(Object.keys(real).length).toBeGreaterThan(8);
    expect(kept).toEqual(real);

    // And the API answers them: totalItems and hydra:last from the maintained counts.
    const [anyStatus] = await db.query(
      `SELECT tracking_status FROM shipment WHERE workspace_id = $1 AND tracking_status IS NOT NULL LIMIT 1`,
      [tenant.workspaceId],
    );
    const lists: Array<[string, string, unknown[]]> = [
      ['/shipments?itemsPerPage=7', 'workspace_id = ANY($1::uuid[])', [workspaces()]],
      [`/workspaces/${second}/shipments?itemsPerPage=7`, 'workspace_id = $1', [second]],
      [
        `/shipments?itemsPerPage=7&trackingStatus=${anyStatus.tracking_status}`,
        'workspace_id = ANY($1::uuid[]) AND tracking_status = $2',
        [workspaces(), anyStatus.tracking_status],
      ],
      [
        '/shipments?itemsPerPage=7&originCarrier[]=ups&originCarrier[]=tm-test&order[updatedAt]=desc',
        `workspace_id = ANY($1::uuid[]) AND origin_carrier IN ('ups', 'tm-test')`,
        [workspaces()],
      ],
    ];
    for (const [url, where, params] of lists) {
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM shipment WHERE ${where}`,
        params,
      );
      const res = await http.get(url).expect(200);
      expect({ url, total: res.body['hydra:totalItems'] }).toEqual({ url, total: n });
      const last = res.body['hydra:view']?.['hydra:last'] as string | undefined;
      expect({ url, last: last?.replace(/.*page=/, '') }).toEqual({
        url,
        last: lastPage(n, 7) > 1 ? String(lastPage(n, 7)) : undefined,
      });
    }
  });

  it('answer the declared shapes and leave every other shape to count(*)', () => {
    const data = app.get(DataProvider);
    const resource = app.get(ResourceRegistry).get(Shipment);
    const principal: Principal = {
      userId: tenant.userId,
      email: tenant.email,
      teamIds: [tenant.teamId],
      adminTeamIds: [tenant.teamId],
      workspaceIds: workspaces(),
    };
    const maintained = (url: string, scope?: Array<{ path: string; id: string }>) =>
      data.plan({ resource, principal, params: QueryParams.fromUrl(url), scope }).maintainedCount;
    expect(maintained('/shipments')).toBe(true);
    expect(maintained('/shipments?page=4&order[createdAt]=asc')).toBe(true);
    expect(maintained('/shipments?trackingStatus=delivered')).toBe(true);
    expect(maintained('/shipments?originCarrier[]=ups&originCarrier[]=dhl')).toBe(true);
    expect(maintained('/shipments', [{ path: 'workspace', id: second }])).toBe(true);
    expect(maintained('/shipments?trackingStatus=delivered&originCarrier=ups')).toBe(false);
    expect(maintained('/shipments?email=a@b.co')).toBe(false);
    expect(maintained('/shipments?createdAt[after]=2020-01-01')).toBe(false);
    expect(maintained('/shipments?shipmentStatus.code=packed')).toBe(false);
    expect(maintained('/shipments', [{ path: 'workspace.team', id: tenant.teamId }])).toBe(false);
  });

  it('fold many delta rows into one without changing the count', async () => {
    await Promise.all(Array.from({ length: 40 }, (_, i) => post(randomBody(i * 3))));
    const deltas = async () =>
      Number(
        (
          await db.query(
            `SELECT count(*) AS n FROM maintained_count
              WHERE table_name = 'shipment' AND scope_id = $1 AND dimension = ''`,
            [tenant.workspaceId],
          )
        )[0].n,
      );
    expect(await deltas()).toBeGreaterThan(32);
    await http.get(`/workspaces/${tenant.workspaceId}/shipments`).expect(200);
    for (let i = 0; i < 100 && (await deltas()) > 1; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await deltas()).toBe(1);
    const { kept, real } = await bothCounts();
    expect(kept).toEqual(real);
  });

  it('are folded by the sweep where nobody reads them', async () => {
    await Promise.all(Array.from({ length: 40 }, (_, i) => post(randomBody(i * 3 + 1))));
    const widest = async () =>
      Number(
        (
          await db.query(
            `SELECT max(c) AS n FROM (SELECT count(*) AS c FROM maintained_count
              WHERE table_name = 'shipment' AND scope_id = $1 GROUP BY dimension, value) k`,
            [tenant.workspaceId],
          )
        )[0].n,
      );
    expect(await widest()).toBeGreaterThan(32);
    expect(await app.get(MaintainedCountSweeper).sweep()).toBeGreaterThan(0);
    expect(await widest()).toBeLessThanOrEqual(32);
    const { kept, real } = await bothCounts();
    expect(kept).toEqual(real);
  });

  it('keep the shipments of each workspace and month (plan limits) through the same writes', async () => {
    // Every write of the tests above (posts, puts, deletes, a bulk load, a move between
    // workspaces) went through the same trigger: the derived count of the billing module.
    const monthly = async (sql: string) =>
      Object.fromEntries(
        (await db.query(sql, [workspaces()])).map((r: { key: string; n: string }) => [
          r.key,
          Number(r.n),
        ]),
      );
    const kept = await monthly(
      `SELECT scope_id || '/' || value AS key, sum(n) AS n FROM maintained_count
        WHERE table_name = 'shipment_created_month' AND dimension = 'created_month'
          AND scope_id = ANY($1::uuid[])
        GROUP BY 1 HAVING sum(n) <> 0`,
    );
    const real = await monthly(
      `SELECT workspace_id || '/' || to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS key,
              count(*) AS n
         FROM shipment WHERE workspace_id = ANY($1::uuid[]) GROUP BY 1`,
    );
    expect(Object.keys(real).length).toBeGreaterThan(1);
    expect(kept).toEqual(real);
  });
});
