import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { Tenant, createTenant } from './factories/tenant.factory';

/**
 * Every filter kind, ordering and pagination rule of hydra-reference.md,
 * exercised through the shipment collection on rows written directly so the
 * read-only fields (days, dates) are under the test's control.
 */
describe('hydra filters, ordering and pagination (shipments)', () => {
  let app: NestExpressApplication;
  let t: Tenant;
  let ids: Record<string, string>;

  const list = (qs: string, accept = 'application/ld+json') =>
    api(app, { token: t.token, accept }).get(`/shipments${qs}`);
  const numbers = async (qs: string): Promise<string[]> => {
    const res = await list(qs).expect(200);
    return res.body['hydra:member'].map((m: { trackingNumber: string | null }) => m.trackingNumber);
  };

  beforeAll(async () => {
    app = await createTestApp();
    t = await createTenant(app);
    const db = app.get(DataSource);
    const rows: Array<
      [string, string | null, number | null, string | null, string[], string | null, string]
    > = [
      // trackingNumber, status, daysInTransit, shippedAt, orderNumbers, email, createdAt
      [
        'AAA1',
        'in_transit',
        3,
        '2024-03-01T10:00:00Z',
        ['ORD-1'],
        'a@example.test',
        '2024-03-01T09:00:00Z',
      ],
      [
        'BBB2',
        'delivered',
        7,
        '2024-03-05T10:00:00Z',
        ['ORD-2', 'ORD-3'],
        'b@example.test',
        '2024-03-04T09:00:00Z',
      ],
      ['CCC3', 'pre_transit', null, null, [], '', '2024-03-10T09:00:00Z'],
      ['DDD4', 'in_transit', 12, '2024-03-12T10:00:00Z', [], null, '2024-03-12T09:00:00Z'],
    ];
    ids = {};
    for (const [tn, status, days, shipped, orders, email, created] of rows) {
      const [r] = await db.query(
        `INSERT INTO shipment (workspace_id, tracking_number, tracking_status, days_in_transit, shipped_at, order_numbers, email, created_at, address_city, next_check_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL) RETURNING id`,
        [
          t.workspaceId,
          tn,
          status,
          days,
          shipped,
          orders,
          email,
          created,
          tn === 'AAA1' ? 'New York' : null,
        ],
      );
      ids[tn] = r.id;
    }
    // A foreign tenant's shipment must never appear.
    const other = await createTenant(app);
    await db.query(
      `INSERT INTO shipment (workspace_id, tracking_number, tracking_status, next_check_at) VALUES ($1, 'ZZZ9', 'in_transit', NULL)`,
      [other.workspaceId],
    );
  });
  afterAll(() => closeTestApp(app));

  it('orders newest first by default with a stable id tie-breaker', async () => {
    expect(await numbers('')).toEqual(['DDD4', 'CCC3', 'BBB2', 'AAA1']);
  });

  it('exact: p=v, p[]=a&p[]=b, case-sensitive, IRIs and raw ids for ids', async () => {
    expect(await numbers('?trackingStatus=in_transit')).toEqual(['DDD4', 'AAA1']);
    expect(await numbers('?trackingStatus[]=delivered&trackingStatus[]=pre_transit')).toEqual([
      'CCC3',
      'BBB2',
    ]);
    expect(await numbers('?trackingNumber=aaa1')).toEqual([]);
    expect(await numbers(`?id=${ids.BBB2}`)).toEqual(['BBB2']);
    expect(await numbers(`?id[]=/shipments/${ids.AAA1}&id[]=${ids.CCC3}`)).toEqual([
      'CCC3',
      'AAA1',
    ]);
    expect(await numbers('?id=not-a-uuid')).toEqual([]);
    expect(await numbers('?address.city=New%20York')).toEqual(['AAA1']);
  });

  it('exact on arrays matches membership; integers parse or are ignored', async () => {
    expect(await numbers('?orderNumbers=ORD-3')).toEqual(['BBB2']);
    expect(await numbers('?orderNumbers[]=ORD-1&orderNumbers[]=ORD-2')).toEqual(['BBB2', 'AAA1']);
    expect(await numbers('?daysInTransit=7')).toEqual(['BBB2']);
    expect(await numbers('?daysInTransit[]=3&daysInTransit[]=12')).toEqual(['DDD4', 'AAA1']);
    expect(await numbers('?daysInTransit=seven')).toHaveLength(4);
  });

  it('date: before/strictly_before/after/strictly_after, nulls excluded, bad dates ignored', async () => {
    expect(await numbers('?shippedAt[after]=2024-03-05T10:00:00Z')).toEqual(['DDD4', 'BBB2']);
    expect(await numbers('?shippedAt[strictly_after]=2024-03-05T10:00:00Z')).toEqual(['DDD4']);
    expect(await numbers('?shippedAt[before]=2024-03-05T10:00:00Z')).toEqual(['BBB2', 'AAA1']);
    expect(await numbers('?shippedAt[strictly_before]=2024-03-05T10:00:00Z')).toEqual(['AAA1']);
    expect(await numbers('?createdAt[after]=2024-03-04&createdAt[before]=2024-03-11')).toEqual([
      'CCC3',
      'BBB2',
    ]);
    expect(await numbers('?shippedAt[after]=yesterday-ish')).toHaveLength(4);
  });

  it('range: between inclusive, gt/gte/lt/lte, malformed ignored', async () => {
    expect(await numbers('?daysInTransit[between]=3..7')).toEqual(['BBB2', 'AAA1']);
    expect(await numbers('?daysInTransit[gt]=3')).toEqual(['DDD4', 'BBB2']);
    expect(await numbers('?daysInTransit[gte]=3&daysInTransit[lt]=12')).toEqual(['BBB2', 'AAA1']);
    expect(await numbers('?daysInTransit[lte]=3')).toEqual(['AAA1']);
    expect(await numbers('?daysInTransit[between]=3..7..9')).toHaveLength(4);
    expect(await numbers('?daysInTransit[gt]=x')).toHaveLength(4);
  });

  it('empty: null, empty string or empty array; false is the opposite', async () => {
    expect(await numbers('?empty[email]=true')).toEqual(['DDD4', 'CCC3']);
    expect(await numbers('?empty[email]=false')).toEqual(['BBB2', 'AAA1']);
    expect(await numbers('?empty[orderNumbers]=true')).toEqual(['DDD4', 'CCC3']);
    expect(await numbers('?empty[orderNumbers]=0')).toEqual(['BBB2', 'AAA1']);
  });

  it('order: case-insensitive, several in request order, unknown ignored', async () => {
    expect(await numbers('?order[daysInTransit]=ASC')).toEqual(['AAA1', 'BBB2', 'DDD4', 'CCC3']);
    expect(await numbers('?order[trackingStatus]=asc&order[trackingNumber]=desc')).toEqual([
      'BBB2',
      'DDD4',
      'AAA1',
      'CCC3',
    ]);
    expect(await numbers('?order[nope]=asc&order[trackingNumber]=sideways')).toEqual([
      'DDD4',
      'CCC3',
      'BBB2',
      'AAA1',
    ]);
  });

  it('unknown parameters are ignored', async () => {
    expect(await numbers('?color=blue&exists[nothing]=1')).toHaveLength(4);
  });

  it('paginates with hydra:view and the reference error cases', async () => {
    const page2 = await list('?itemsPerPage=3&page=2').expect(200);
    expect(page2.body['hydra:member']).toHaveLength(1);
    expect(page2.body['hydra:totalItems']).toBe(4);
    expect(page2.body['hydra:view']).toEqual({
      '@id': '/shipments?itemsPerPage=3&page=2',
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': '/shipments?itemsPerPage=3&page=1',
      'hydra:last': '/shipments?itemsPerPage=3&page=2',
      'hydra:previous': '/shipments?itemsPerPage=3&page=1',
    });
    const all = [
      ...(await numbers('?itemsPerPage=2&page=1')),
      ...(await numbers('?itemsPerPage=2&page=2')),
    ];
    expect(new Set(all).size).toBe(4);
    expect((await list('?page=0').expect(400)).body['hydra:description']).toBe(
      'Page should not be less than 1',
    );
    await list('?page=abc').expect(400);
    await list('?itemsPerPage=-1').expect(400);
    await list('?itemsPerPage=0&page=2').expect(400);
    const zero = await list('?itemsPerPage=0').expect(200);
    expect(zero.body['hydra:member']).toEqual([]);
    expect(zero.body['hydra:totalItems']).toBe(4);
    const capped = await list('?itemsPerPage=100000').expect(200);
    expect(capped.body['hydra:member']).toHaveLength(4);
  });

  it('hydra:search lists the declared variables in order with mappings', async () => {
    const res = await list('').expect(200);
    const search = res.body['hydra:search'];
    expect(search['@type']).toBe('hydra:IriTemplate');
    expect(search['hydra:variableRepresentation']).toBe('BasicRepresentation');
    expect(search['hydra:template']).toMatch(
      /^\/shipments\{\?.*trackingStatus,trackingStatus\[\],.*\}$/,
    );
    expect(search['hydra:template']).toContain(
      'createdAt[before],createdAt[strictly_before],createdAt[after],createdAt[strictly_after]',
    );
    expect(search['hydra:template']).toContain(
      'daysInTransit[between],daysInTransit[gt],daysInTransit[gte],daysInTransit[lt],daysInTransit[lte]',
    );
    expect(search['hydra:mapping']).toContainEqual({
      '@type': 'IriTemplateMapping',
      variable: 'trackingStatus[]',
      property: 'trackingStatus',
      required: false,
    });
    expect(search['hydra:mapping']).toContainEqual({
      '@type': 'IriTemplateMapping',
      variable: 'empty[email]',
      property: 'email',
      required: false,
    });
  });

  it('applies the same filters in JSON (bare array) and CSV', async () => {
    const json = await list('?trackingStatus=delivered', 'application/json').expect(200);
    expect(json.body.map((s: { trackingNumber: string }) => s.trackingNumber)).toEqual(['BBB2']);
    const csv = await list(
      '?trackingStatus=in_transit&order[trackingNumber]=asc',
      'text/csv',
    ).expect(200);
    const [header, ...lines] = csv.text.trim().split('\n');
    const columns = header.split(',');
    const tnIndex = columns.indexOf('trackingNumber');
    expect(lines.map((l) => l.split(',')[tnIndex])).toEqual(['AAA1', 'DDD4']);
    expect(columns).toEqual(expect.arrayContaining(['orderNumbers.0', 'address.city']));
  });

  it('filters nested routes the same way and 404s foreign parents', async () => {
    const res = await api(app, { token: t.token })
      .get(`/workspaces/${t.workspaceId}/shipments?trackingStatus=in_transit`)
      .expect(200);
    expect(
      res.body['hydra:member'].map((m: { trackingNumber: string }) => m.trackingNumber),
    ).toEqual(['DDD4', 'AAA1']);
    expect(res.body['hydra:search']['hydra:template']).toMatch(
      new RegExp(`^/workspaces/${t.workspaceId}/shipments\\{\\?`),
    );
    const other = await createTenant(app);
    await api(app, { token: t.token })
      .get(`/workspaces/${other.workspaceId}/shipments`)
      .expect(404);
    await api(app, { token: t.token })
      .get(`/teams/${t.teamId}/workspaces/${other.workspaceId}/shipments`)
      .expect(404);
    const viaTeam = await api(app, { token: t.token })
      .get(`/teams/${t.teamId}/workspaces/${t.workspaceId}/shipments`)
      .expect(200);
    expect(viaTeam.body['hydra:totalItems']).toBe(4);
  });
});
