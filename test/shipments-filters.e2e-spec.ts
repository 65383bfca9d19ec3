import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import type { SearchVariable } from '../src/hydra/core/filter';
import type { ResourceMeta } from '../src/hydra/core/resource-meta';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { searchVariables } from '../src/hydra/metadata/search-variables';
import { Order } from '../src/orders/order.entity';
import { ShipmentItem } from '../src/shipment-items/shipment-item.entity';
import { Shipment } from '../src/shipments/shipment.entity';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import {
  createOrder,
  createOrderItem,
  createShipment,
  createShipmentItem,
} from './factories/commerce.factory';

/**
 * Table-driven: every variable a resource declares in hydra:search is tried
 * on two records A and B that differ in that property (A "lower" or empty),
 * and must separate them (or order them) as its kind says.
 */

type Pair = { a: unknown; b: unknown };

interface Fixture {
  tenant: Tenant;
  resource: ResourceMeta;
  a: string;
  b: string;
  /** Values of properties the records got from their seeding (ids, joined fields). */
  fixed: Record<string, Pair>;
}

const DATE_OPS = ['before', 'strictly_before', 'after', 'strictly_after'];
const RANGE_OPS = ['between', 'gt', 'gte', 'lt', 'lte'];
/** Values that satisfy CHECK constraints and sort A before B. */
const DOMAIN_VALUES: Record<string, Pair> = {
  fulfillmentStatus: { a: 'fulfilled', b: 'partial' },
  orderType: { a: 'customer', b: 'vendor' },
  attention: { a: 'late', b: 'stalled' },
};

function kindOf(v: SearchVariable): { kind: string; op?: string } {
  // groups[] picks the properties shown, not the rows.
  if (v.variable === 'groups[]') return { kind: 'view' };
  const p = v.property ?? '';
  if (v.variable === `order[${p}]`) return { kind: 'order' };
  if (v.variable === `empty[${p}]`) return { kind: 'empty' };
  if (v.variable === p) return { kind: 'exact' };
  if (v.variable === `${p}[]`) return { kind: 'exactArray' };
  const op = v.variable.slice(p.length + 1, -1);
  if (DATE_OPS.includes(op)) return { kind: 'date', op };
  if (RANGE_OPS.includes(op)) return { kind: 'range', op };
  throw new Error(`unhandled search variable ${v.variable}`);
}

describe('declared filters filter (table-driven)', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let registry: ResourceRegistry;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    registry = app.get(ResourceRegistry);
  });
  afterAll(() => closeTestApp(app));

  /** Stored value pairs for an own column of the resource table, by its SQL type. */
  function columnPair(resource: ResourceMeta, property: string, empty: boolean) {
    const column = resource.entity.findColumnWithPropertyPath(property);
    if (!column || column.relationMetadata) return null;
    const type = db.driver.normalizeType(column).toLowerCase();
    let pair: Pair;
    if (column.isArray) pair = { a: ['A-1'], b: ['B-1'] };
    else if (DOMAIN_VALUES[property]) pair = DOMAIN_VALUES[property];
    else if (type.startsWith('int')) pair = { a: 1, b: 2 };
    else if (type === 'numeric') pair = { a: '1.5', b: '2.5' };
    else if (type.startsWith('double')) pair = { a: 1.5, b: 2.5 };
    else if (type.startsWith('timestamp'))
      pair = { a: '2024-01-01T00:00:00.000Z', b: '2024-06-01T00:00:00.000Z' };
    else pair = { a: 'a-value', b: 'b-value' };
    if (empty) pair = { a: column.isArray ? [] : column.isNullable ? null : '', b: pair.b };
    return { column: column.databaseName, pair };
  }

  async function valuesFor(f: Fixture, property: string, empty = false): Promise<Pair> {
    if (f.fixed[property]) return f.fixed[property];
    const spec = columnPair(f.resource, property, empty);
    if (!spec) throw new Error(`${f.resource.shortName}: no way to seed ${property}`);
    const sql = `UPDATE "${f.resource.table}" SET "${spec.column}" = $1 WHERE id = $2`;
    await db.query(sql, [spec.pair.a, f.a]);
    await db.query(sql, [spec.pair.b, f.b]);
    return spec.pair;
  }

  async function listed(f: Fixture, query: string): Promise<string[]> {
    const res = await api(app, { token: f.tenant.token })
      .get(`${f.resource.path}?${query}`)
      .expect(200);
    return res.body['hydra:member']
      .map((r: { id: string }) => r.id)
      .filter((id: string) => id === f.a || id === f.b);
  }

  const asParam = (v: unknown) =>
    encodeURIComponent(
      Array.isArray(v) ? String(v[0]) : v instanceof Date ? v.toISOString() : String(v),
    );

  async function checkAll(f: Fixture): Promise<number> {
    const vars = searchVariables(registry, f.resource);
    const A = [f.a];
    const B = [f.b];
    for (const v of vars) {
      // Families of user-defined keys (customFields.{code}) need field
      // definitions; test/custom-field-values.e2e-spec.ts covers them.
      if (v.variable.includes('{')) continue;
      const { kind, op } = kindOf(v);
      const name = encodeURIComponent(v.variable);
      if (kind === 'view') {
        const got = await listed(f, `${name}=get${f.resource.shortName}`);
        if ([...got].sort().join() !== [...A, ...B].sort().join())
          throw new Error(`${f.resource.shortName} ?groups[]: expected both records`);
        continue;
      }
      const p = v.property!;
      const pair = await valuesFor(f, p, kind === 'empty');
      const a = asParam(pair.a);
      const b = asParam(pair.b);
      const expectations: Array<[string, string[]]> = [];
      switch (kind) {
        case 'exact':
          expectations.push([`${name}=${a}`, A], [`${name}=${b}`, B]);
          break;
        case 'exactArray':
          expectations.push([`${name}=${a}`, A], [`${name}=${a}&${name}=${b}`, [...A, ...B]]);
          break;
        case 'date': {
          const value = { before: a, strictly_before: b, after: b, strictly_after: a }[op!];
          const expected = op === 'before' || op === 'strictly_before' ? A : B;
          expectations.push([`${name}=${value}`, expected]);
          break;
        }
        case 'range': {
          const cases: Record<string, [string, string[]]> = {
            between: [`${a}..${a}`, A],
            gt: [a, B],
            gte: [b, B],
            lt: [b, A],
            lte: [a, A],
          };
          const [value, expected] = cases[op!];
          expectations.push([`${name}=${value}`, expected]);
          break;
        }
        case 'order': {
          // Seeded values sort A first; ids sort as they come.
          const [first, second] = p === 'id' && f.b < f.a ? [f.b, f.a] : [f.a, f.b];
          expectations.push([`${name}=asc`, [first, second]], [`${name}=desc`, [second, first]]);
          break;
        }
        case 'empty':
          expectations.push([`${name}=true`, A], [`${name}=false`, B]);
          break;
      }
      for (const [query, expected] of expectations) {
        let got = await listed(f, query);
        // Only orderings compare in order; the others compare as sets.
        if (kind !== 'order')
          got = [...got].sort((x, y) => expected.indexOf(x) - expected.indexOf(y));
        if (JSON.stringify(got) !== JSON.stringify(expected)) {
          throw new Error(
            `${f.resource.shortName} ?${decodeURIComponent(query)}: expected ${label(f, expected)}, got ${label(f, got)}`,
          );
        }
      }
    }
    return vars.length;
  }

  const label = (f: Fixture, ids: string[]) =>
    '[' + ids.map((id) => (id === f.a ? 'A' : id === f.b ? 'B' : id)).join(',') + ']';

  it('every shipment filter and ordering separates two shipments', async () => {
    const tenant = await createTenant(app);
    const a = await createShipment(app, tenant, { shipmentStatus: { code: 'a-status' } });
    const b = await createShipment(app, tenant, { shipmentStatus: { code: 'b-status' } });
    // The store integration a shipment came from is a workflow of its workspace.
    const integrations: string[] = [];
    for (const [shipment, name] of [
      [a.id, 'woocommerce'],
      [b.id, 'shopify'],
    ]) {
      const [w] = await db.query(
        `INSERT INTO workflow (workspace_id, type, period) VALUES ($1, $2, 'immediately') RETURNING id`,
        [tenant.workspaceId, `integration-${name}`],
      );
      await db.query(`UPDATE shipment SET external_source_integration_id = $1 WHERE id = $2`, [
        w.id,
        shipment,
      ]);
      integrations.push(`/workflows/${w.id}`);
    }
    const n = await checkAll({
      tenant,
      resource: registry.get(Shipment),
      a: a.id,
      b: b.id,
      fixed: {
        id: { a: a.id, b: b.id },
        'shipmentStatus.code': { a: 'a-status', b: 'b-status' },
        externalSourceIntegration: { a: integrations[0], b: integrations[1] },
      },
    });
    expect(n).toBeGreaterThan(100);
  });

  it('every order filter and ordering separates two orders', async () => {
    const tenant = await createTenant(app);
    const a = await createOrder(app, tenant, { orderStatus: { code: 'a-status' } });
    const b = await createOrder(app, tenant, { orderStatus: { code: 'b-status' } });
    const n = await checkAll({
      tenant,
      resource: registry.get(Order),
      a: a.id,
      b: b.id,
      fixed: {
        id: { a: a.id, b: b.id },
        'orderStatus.code': { a: 'a-status', b: 'b-status' },
      },
    });
    expect(n).toBeGreaterThan(100);
  });

  it('every shipment item filter and ordering separates two shipment items', async () => {
    const tenant = await createTenant(app);
    const second = await addWorkspace(app, tenant);
    const seed = async (workspace: string, trackingNumber: string) => {
      const t = { ...tenant, workspaceId: workspace };
      const order = await createOrder(app, t);
      const item = await createOrderItem(app, t, order['@id'], { qty: 5 });
      const shipment = await createShipment(app, t, { trackingNumber });
      const si = await createShipmentItem(app, t, {
        shipment: shipment['@id'],
        orderItem: item['@id'],
      });
      return { order, item, shipment, si };
    };
    const a = await seed(tenant.workspaceId, 'TM102AAAAAAATM');
    const b = await seed(second, 'TM102BBBBBBBTM');
    const n = await checkAll({
      tenant,
      resource: registry.get(ShipmentItem),
      a: a.si.id,
      b: b.si.id,
      fixed: {
        id: { a: a.si.id, b: b.si.id },
        'shipment.id': { a: a.shipment.id, b: b.shipment.id },
        'shipment.trackingNumber': { a: 'TM102AAAAAAATM', b: 'TM102BBBBBBBTM' },
        'orderItem.id': { a: a.item.id, b: b.item.id },
        'orderItem.order.id': { a: a.order.id, b: b.order.id },
        'workspace.id': { a: tenant.workspaceId, b: second },
      },
    });
    expect(n).toBe(20);
  });
});
