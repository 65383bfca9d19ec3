import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Tenant, addWorkspace, createTenant } from './factories/tenant.factory';
import { uniqueSubdomain } from './factories/media.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

describe('tracking page links and reviews', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let t: Tenant;
  let pageId: string;
  let shipmentId: string;

  const shipmentIn = async (workspaceId: string, extra = '') =>
    (
      await db.query(
        `INSERT INTO shipment (workspace_id, tracking_number, tracking_status, origin_carrier, origin_country_iso2, email)
         VALUES ($1, $2, 'in_transit', 'china-post', 'CN', 'secret@example.test') RETURNING id`,
        [workspaceId, `TMLINK${extra}${Math.random().toString(36).slice(2, 10).toUpperCase()}`],
      )
    )[0].id as string;

  const page = async (tenant: Tenant, body: Record<string, unknown> = {}) =>
    (
      await api(app, { token: tenant.token })
        .post('/tracking_pages', {
          workspace: `/workspaces/${tenant.workspaceId}`,
          subdomain: uniqueSubdomain('links'),
          title: 'Where is my parcel',
          ...body,
        })
        .expect(201)
    ).body.id as string;

  const generate = (tenant: Tenant, body: Record<string, unknown>) =>
    api(app, { token: tenant.token }).post('/generate_tracking_page_link', body);

  const hashOf = (link: string) => link.slice(link.lastIndexOf('/') + 1);

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
  });
  afterAll(() => closeTestApp(app));
  beforeEach(async () => {
    t = await createTenant(app);
    pageId = await page(t);
    shipmentId = await shipmentIn(t.workspaceId);
  });

  it('generates one unguessable link per page and shipment', async () => {
    const res = await generate(t, { trackingPageId: pageId, filter: { id: shipmentId } }).expect(
      201,
    );
    expect(res.body).toMatchObject({ '@type': 'TrackingPageLink' });
    expect(res.body.link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/t\/[A-Za-z0-9_-]{43}$/);
    const again = await generate(t, {
      trackingPageId: `/tracking_pages/${pageId}`,
      filter: { id: `/shipments/${shipmentId}` },
    }).expect(201);
    // supertest listens on a new port per request: compare the hashes.
    expect(hashOf(again.body.link)).toBe(hashOf(res.body.link));
    const json = await api(app, { token: t.token })
      .json()
      .post('/generate_tracking_page_link', { trackingPageId: pageId, filter: { id: shipmentId } })
      .expect(201);
    expect(Object.keys(json.body)).toEqual(['link']);
    expect(hashOf(json.body.link)).toBe(hashOf(res.body.link));
    const [row] = await db.query(`SELECT tracking_number FROM shipment WHERE id = $1`, [
      shipmentId,
    ]);
    const byNumber = await generate(t, {
      trackingPageId: pageId,
      trackingNumber: row.tracking_number,
    }).expect(201);
    expect(hashOf(byNumber.body.link)).toBe(hashOf(res.body.link));
  });

  it('answers 422 for missing or foreign pages and shipments, 400 for wrong types', async () => {
    const other = await createTenant(app);
    const foreignPage = await page(other);
    const foreignShipment = await shipmentIn(other.workspaceId);
    const second = await addWorkspace(app, t);
    const otherWorkspaceShipment = await shipmentIn(second);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ filter: { id: shipmentId } }, 'trackingPageId'],
      [{ trackingPageId: foreignPage, filter: { id: shipmentId } }, 'trackingPageId'],
      [{ trackingPageId: pageId }, 'filter.id'],
      [{ trackingPageId: pageId, filter: { id: foreignShipment } }, 'filter.id'],
      [{ trackingPageId: pageId, filter: { id: otherWorkspaceShipment } }, 'filter.id'],
      [{ trackingPageId: pageId, filter: { id: 'nope' } }, 'filter.id'],
      [{ trackingPageId: pageId, trackingNumber: 'UNKNOWN1' }, 'trackingNumber'],
    ];
    for (const [body, path] of cases) {
      const res = await generate(t, body).expect(422);
      expect(res.body.violations[0].propertyPath).toBe(path);
    }
    await generate(t, { trackingPageId: 5, filter: { id: shipmentId } }).expect(400);
    await generate(t, { trackingPageId: pageId, filter: 'x' }).expect(400);
    await generate(t, { trackingPageId: pageId, filter: { id: 7 } }).expect(400);
    await api(app).post('/generate_tracking_page_link', {}).expect(401);
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM tracking_page_link WHERE workspace_id = $1`,
      [t.workspaceId],
    );
    expect(n).toBe(0);
  });

  it('generates links in bulk, all or nothing', async () => {
    const second = await shipmentIn(t.workspaceId);
    const res = await api(app, { token: t.token })
      .post('/generate_tracking_page_links', {
        trackingPageId: pageId,
        filter: { id: [shipmentId, second] },
      })
      .expect(201);
    expect(res.body.links.map((l: any) => l.id)).toEqual([shipmentId, second]);
    expect(new Set(res.body.links.map((l: any) => l.link)).size).toBe(2);
    const other = await createTenant(app);
    const bad = await api(app, { token: t.token })
      .post('/generate_tracking_page_links', {
        trackingPageId: pageId,
        filter: { id: [shipmentId, await shipmentIn(other.workspaceId)] },
      })
      .expect(422);
    expect(bad.body.violations.map((v: any) => v.propertyPath)).toEqual(['filter.id[1]']);
    await api(app, { token: t.token })
      .post('/generate_tracking_page_links', { trackingPageId: pageId, filter: {} })
      .expect(422);
  });

  it('serves the public view without a token, without contact data, with checkpoints', async () => {
    await db.query(
      `INSERT INTO tracking_checkpoint (shipment_id, workspace_id, external_id, checkpoint_date, status, info, location, country_iso2, carrier)
       VALUES ($1, $2, 'a', '2024-01-01T10:00:00Z', 'in_transit', 'Departed 深圳 hub', 'Shenzhen', 'CN', 'china-post'),
              ($1, $2, 'b', '2024-01-03T10:00:00Z', 'in_transit', 'Arrived', 'Chicago', 'US', 'usps')`,
      [shipmentId, t.workspaceId],
    );
    const { link } = (
      await generate(t, { trackingPageId: pageId, filter: { id: shipmentId } }).expect(201)
    ).body;
    const hash = hashOf(link);
    const res = await request(app.getHttpServer())
      .get(`/public/tracking_page_links/${hash}`)
      .expect(200);
    expect(res.body).toMatchObject({
      '@type': 'PublicTrackingPage',
      trackingPage: { title: 'Where is my parcel', reviewsEnabled: true },
      shipment: { trackingStatus: 'in_transit', originCarrier: 'china-post', review: null },
    });
    expect(JSON.stringify(res.body)).not.toContain('secret@example.test');
    expect(res.body.checkpoints.map((c: any) => c.location)).toEqual(['Chicago', 'Shenzhen']);

    await api(app, { token: t.token })
      .put(`/tracking_pages/${pageId}`, {
        subdomain: res.body.trackingPage.subdomain,
        title: 'Where is my parcel',
        dropshipperSettings: {
          enabled: true,
          blacklistCarriers: ['china-post'],
          hideHieroglyphs: true,
          originCountryReplacement: 'DE',
        },
      })
      .expect(200);
    const hidden = await request(app.getHttpServer())
      .get(`/public/tracking_page_links/${hash}`)
      .expect(200);
    expect(hidden.body.shipment).toMatchObject({ originCarrier: null, originCountryIso2: 'DE' });
    expect(hidden.body.checkpoints[1]).toMatchObject({ info: 'Departed hub', carrier: null });

    const html = await request(app.getHttpServer()).get(`/t/${hash}`).expect(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.text).toContain('Where is my parcel');
    expect(html.text).toContain('On its way');

    await request(app.getHttpServer())
      .get('/public/tracking_page_links/not-a-real-hash-at-all-1234')
      .expect(404);
    await api(app, { token: t.token })
      .put(`/tracking_pages/${pageId}`, {
        subdomain: res.body.trackingPage.subdomain,
        enabled: false,
      })
      .expect(200);
    await request(app.getHttpServer()).get(`/public/tracking_page_links/${hash}`).expect(404);
  });

  it('takes reviews, one per shipment, and shows them on the shipment', async () => {
    // Reviews are for delivered shipments (test/security/reviews.e2e-spec.ts).
    await db.query(`UPDATE shipment SET tracking_status = 'delivered' WHERE id = $1`, [shipmentId]);
    const { link } = (
      await generate(t, { trackingPageId: pageId, filter: { id: shipmentId } }).expect(201)
    ).body;
    const post = (body: Record<string, unknown>) =>
      request(app.getHttpServer())
        .post(`/public/tracking_page_links/${hashOf(link)}/reviews`)
        .set('Content-Type', 'application/json')
        .send(body);
    const res = await post({
      carrierScore: 5,
      productScore: 4,
      packagingScore: 3,
      comment: 'Fast',
    }).expect(201);
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const review = await api(app, { token: t.token }).get(`/reviews/${res.body.id}`).expect(200);
    expect(review.body).toMatchObject({
      shipment: `/shipments/${shipmentId}`,
      trackingPage: `/tracking_pages/${pageId}`,
      carrierScore: 5,
      productScore: 4,
      packagingScore: 3,
      totalScore: 4,
      comment: 'Fast',
    });
    const [s] = await db.query(`SELECT review, review_total_score FROM shipment WHERE id = $1`, [
      shipmentId,
    ]);
    expect(s).toEqual({ review: `/reviews/${res.body.id}`, review_total_score: 4 });

    const again = await post({ score: 2 }).expect(201);
    expect(again.body.id).toBe(res.body.id);
    const updated = await api(app, { token: t.token }).get(`/reviews/${res.body.id}`).expect(200);
    expect(updated.body).toMatchObject({ totalScore: 2, carrierScore: null, comment: null });

    const other = await createTenant(app);
    await api(app, { token: other.token }).get(`/reviews/${res.body.id}`).expect(404);

    expect((await post({ carrierScore: 6 }).expect(422)).body.violations[0].propertyPath).toBe(
      'carrierScore',
    );
    expect((await post({}).expect(422)).body.violations).toHaveLength(3);
    await post({ carrierScore: 'five' }).expect(400);
    await post({ score: 3, comment: 4 }).expect(400);
    await request(app.getHttpServer())
      .post('/public/tracking_page_links/unknown-hash-unknown-hash-1/reviews')
      .send({ score: 3 })
      .expect(404);

    await db.query(`UPDATE tracking_page SET reviews_enabled = false WHERE id = $1`, [pageId]);
    const disabled = await post({ score: 3 }).expect(422);
    expect(disabled.body['hydra:description']).toBe('Reviews are disabled on this tracking page.');
  });
});
