import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { PrincipalLoader } from '../src/access/principal-loader';
import type { Principal } from '../src/access/principal';
import { DataProvider } from '../src/hydra/collection/data-provider';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { quoteIdent } from '../src/hydra/core/sql-query';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createTenant } from './factories/tenant.factory';
import { createOrder, createShipment, createStatus } from './factories/commerce.factory';

/**
 * Items in JSON-LD and JSON are rendered by PostgreSQL (src/hydra/serialization/record-json.ts);
 * every other format, every list and every write still maps rows in JavaScript. Both must say
 * the same: for every resource with an item route, every row the demo dataset and a few edge
 * records leave in this database is read both ways and compared key for key, in order.
 */
describe('items rendered by PostgreSQL equal the row mapper', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let data: DataProvider;
  let registry: ResourceRegistry;
  let principal: Principal;

  beforeAll(async () => {
    process.env.ENABLE_TEST_FIXTURES = 'true';
    app = await createTestApp();
    db = app.get(DataSource);
    data = app.get(DataProvider);
    registry = app.get(ResourceRegistry);
    const t = await createTenant(app);
    const as = api(app, { token: t.token });
    await as.post('/test/load-fixtures', {}).expect(201);
    // Edge values beside the demo data: empty and null values, an address, a status, custom
    // fields, dates with sub-second precision, a review score.
    const status = await createStatus(app, t, { code: 'edge_status', title: 'Edge status' });
    const order = await createOrder(app, t, { subtotal: '10.50', total: '12.00' });
    const shipment = await createShipment(app, t, {
      orderNumbers: [order.orderNumber],
      address: { city: 'Zürich', countryIso2: 'CH', firstName: "O'Brien" },
      shipmentStatus: { id: status.id, code: 'edge_status' },
    });
    await db.query(
      `UPDATE shipment SET review_total_score = 4.25, shipped_at = '2026-01-02 03:04:05.987654+00',
              custom_fields = '{"b": [1, 2.5, null], "a": {"x": "\\"quoted\\""}}'
        WHERE id = $1`,
      [shipment.id],
    );
    await createShipment(app, t, { email: '', phoneNumber: null });
    principal = (await app.get(PrincipalLoader).forUser(t.userId))!;
  });
  afterAll(() => closeTestApp(app));

  it('renders every resource in SQL', () => {
    const mapped = registry
      .all()
      .filter((r) => data.reader.reader(r).json === null)
      .map((r) => r.shortName);
    expect(mapped).toEqual([]);
  });

  it('answers each item as the row mapper does, key for key', async () => {
    let compared = 0;
    for (const resource of registry.all()) {
      const ids: Array<{ id: string }> = await db.query(
        `SELECT ${quoteIdent(resource.idColumn)}::text AS id FROM ${quoteIdent(resource.table)} LIMIT 200`,
      );
      for (const { id } of ids) {
        const record = await data.find(resource, principal, id);
        const item = await data.findJson(resource, principal, id);
        if (!record) {
          expect([resource.shortName, id, item]).toEqual([resource.shortName, id, null]);
          continue;
        }
        compared++;
        // Key order included: both texts parsed and written again by the same JSON.stringify.
        expect([resource.shortName, JSON.stringify(JSON.parse(item!.json))]).toEqual([
          resource.shortName,
          JSON.stringify(record),
        ]);
        expect(item!.id).toBe(String(record[resource.idProperty]));
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('answers GET in JSON-LD and JSON with the record and its JSON-LD head', async () => {
    const t = await createTenant(app);
    const shipment = await createShipment(app, t);
    const as = api(app, { token: t.token });
    const ld = await as.get(`/shipments/${shipment.id}`).expect(200);
    expect(Object.keys(ld.body).slice(0, 4)).toEqual(['@context', '@id', '@type', 'id']);
    expect(ld.body).toMatchObject({
      '@context': '/contexts/Shipment',
      '@id': `/shipments/${shipment.id}`,
      '@type': 'Shipment',
      id: shipment.id,
    });
    const json = await as
      .get(`/shipments/${shipment.id}`)
      .set('Accept', 'application/json')
      .expect('Content-Type', 'application/json; charset=utf-8')
      .expect(200);
    const { '@context': _c, '@id': _i, '@type': _t, ...record } = ld.body;
    expect(json.body).toEqual(record);
    // Compact, as JSON.stringify writes it, except inside jsonb documents (deliveryPrediction,
    // customFields), which PostgreSQL writes in its own form (`{"a": 1}`): the same JSON.
    const { deliveryPrediction: _p, customFields: _f, ...scalars } = json.body;
    for (const [key, value] of Object.entries(scalars))
      expect(json.text).toContain(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
  });
});
