import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { uniqueSubdomain } from '../factories/media.factory';
import { createTenant, Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

/** A review and three edits per link and hour (src/tracking-pages/reviews.service.ts). */
const WRITES_PER_LINK = 4;

/**
 * Issue 22 item 9: `POST /public/tracking_page_links/{hash}/reviews` took a review of a
 * shipment that was not delivered (no_info) and replaced it without limit, through JSON and
 * through the page's form alike.
 */
describe('security: reviews', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let t: Tenant;
  let pageId: string;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    t = await createTenant(app);
    pageId = (
      await api(app, { token: t.token })
        .post('/tracking_pages', {
          workspace: `/workspaces/${t.workspaceId}`,
          subdomain: uniqueSubdomain('reviews'),
        })
        .expect(201)
    ).body.id;
  });
  afterAll(async () => {
    await db?.query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
  });

  /** The public link of a new shipment with `status`. */
  async function linkOf(status: string): Promise<{ hash: string; shipmentId: string }> {
    const [s] = await db.query(
      `INSERT INTO shipment (workspace_id, tracking_number, tracking_status)
       VALUES ($1, $2, $3) RETURNING id`,
      [t.workspaceId, `TMREV${randomBytes(5).toString('hex').toUpperCase()}`, status],
    );
    const { link } = (
      await api(app, { token: t.token })
        .post('/generate_tracking_page_link', { trackingPageId: pageId, filter: { id: s.id } })
        .expect(201)
    ).body;
    return { hash: link.slice(link.lastIndexOf('/') + 1), shipmentId: s.id };
  }

  const json = (hash: string, body: Record<string, unknown>) =>
    api(app).post(`/public/tracking_page_links/${hash}/reviews`, body);
  const form = (hash: string, body: Record<string, string>) =>
    request(app.getHttpServer())
      .post(`/public/tracking_page_links/${hash}/reviews`)
      .type('form')
      .send(body);
  const reviews = async (shipmentId: string) =>
    (
      await db.query(`SELECT count(*)::int AS n FROM review WHERE shipment_id = $1`, [shipmentId])
    )[0].n as number;

  it('takes reviews of delivered shipments only', async () => {
    for (const status of ['no_info', 'in_transit', 'delivery_in_progress', 'pre_transit']) {
      const { hash, shipmentId } = await linkOf(status);
      const res = await json(hash, { score: 1, comment: 'Never arrived' }).expect(422);
      expect(res.body['hydra:description']).toBe(
        'Reviews can be left once the shipment is delivered.',
      );
      const viaForm = await form(hash, { score: '1' }).expect(303);
      expect(viaForm.headers.location).toBe(`/t/${hash}?review=invalid#review`);
      expect(await reviews(shipmentId)).toBe(0);
    }
    const { hash, shipmentId } = await linkOf('delivered');
    await json(hash, { score: 5 }).expect(201);
    expect(await reviews(shipmentId)).toBe(1);
  });

  it('takes one review per link; edits are budgeted (429 with Retry-After), JSON and form', async () => {
    const { hash, shipmentId } = await linkOf('delivered');
    const first = await json(hash, { score: 2 }).expect(201);
    for (let i = 1; i < WRITES_PER_LINK; i++) {
      const edit = await (i % 2 ? form(hash, { score: String(i + 1) }) : json(hash, { score: 3 }));
      expect([201, 303]).toContain(edit.status);
    }
    const limited = await json(hash, { score: 1 }).expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const limitedForm = await form(hash, { score: '1', lang: 'de' }).expect(429);
    expect(Number(limitedForm.headers['retry-after'])).toBeGreaterThan(0);
    expect(limitedForm.headers['content-type']).toMatch(/^text\/html/);
    expect(limitedForm.text).toContain('Bewertung nicht gespeichert');
    // Still the one review, as last edited within the budget.
    expect(await reviews(shipmentId)).toBe(1);
    const [row] = await db.query(`SELECT id, total_score FROM review WHERE shipment_id = $1`, [
      shipmentId,
    ]);
    expect(row.id).toBe(first.body.id);
    expect(row.total_score).not.toBe(1);
    // Another link's budget is its own.
    const other = await linkOf('delivered');
    await json(other.hash, { score: 4 }).expect(201);
  });
});
