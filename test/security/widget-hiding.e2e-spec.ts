import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { uniqueSubdomain } from '../factories/media.factory';
import { createTenant, Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

/**
 * Issue 22 item 11a, a suspicion: the widget look-up (`WidgetLookupService.describe`) answers
 * carriers, places and checkpoint texts straight from the tables, while the tracking page
 * passes them through `publicTrackingView` with the page's dropshipper settings. A dropshipper
 * hiding where the goods come from would see them shown through its widget.
 */
describe('security: widgets hide what the tracking page hides', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let t: Tenant;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    t = await createTenant(app);
  });
  afterAll(async () => {
    await db?.query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
  });

  /** A shipment from China with a checkpoint naming the origin in Chinese. */
  async function shipment(): Promise<{ id: string; trackingNumber: string }> {
    const trackingNumber = `TMW${randomBytes(5).toString('hex').toUpperCase()}`;
    const [s] = await db.query(
      `INSERT INTO shipment (workspace_id, tracking_number, tracking_status, origin_carrier,
              destination_carrier, origin_country_iso2)
       VALUES ($1, $2, 'in_transit', 'china-post', 'usps', 'CN') RETURNING id`,
      [t.workspaceId, trackingNumber],
    );
    await db.query(
      `INSERT INTO tracking_checkpoint (shipment_id, workspace_id, external_id, checkpoint_date,
              status, info, location, country_iso2, carrier)
       VALUES ($1, $2, 'a', '2024-01-01T10:00:00Z', 'in_transit', 'Departed 深圳 hub Yiwu',
               'Shenzhen 深圳', 'CN', 'china-post'),
              ($1, $2, 'b', '2024-01-03T10:00:00Z', 'in_transit', 'Arrived', 'Chicago', 'US', 'usps')`,
      [s.id, t.workspaceId],
    );
    return { id: s.id, trackingNumber };
  }

  const lookup = (widgetId: string, trackingNumber: string) =>
    request(app.getHttpServer())
      .post(`/public/widgets/${widgetId}/lookup`)
      .set('Content-Type', 'application/json')
      .send({ trackingNumber })
      .expect(200);

  it('applies the default tracking page’s dropshipper settings to look-ups', async () => {
    const { id: pageId } = (
      await api(app, { token: t.token })
        .post('/tracking_pages', {
          workspace: `/workspaces/${t.workspaceId}`,
          subdomain: uniqueSubdomain('widget'),
          dropshipperSettings: {
            enabled: true,
            blacklistCarriers: ['china-post'],
            hideHieroglyphs: true,
            stopWords: 'Yiwu',
            originCountryReplacement: 'DE',
          },
        })
        .expect(201)
    ).body;
    const [w] = await db.query(`SELECT default_tracking_page_id FROM workspace WHERE id = $1`, [
      t.workspaceId,
    ]);
    expect(w.default_tracking_page_id).toBe(pageId);
    const widget = (
      await api(app, { token: t.token })
        .post('/widgets', {
          workspace: `/workspaces/${t.workspaceId}`,
          title: 'Track your parcel',
          type: 'tracking_form',
          options: ['show_carrier', 'show_checkpoints'],
        })
        .expect(201)
    ).body;
    const { trackingNumber } = await shipment();

    const res = await lookup(widget.id, trackingNumber);
    const [found] = res.body.shipments;
    expect(found).toMatchObject({ originCarrier: null, destinationCarrier: 'usps' });
    expect(found.checkpoints).toEqual([
      expect.objectContaining({ info: 'Arrived', location: 'Chicago', countryIso2: 'US' }),
      expect.objectContaining({ info: 'Departed hub', location: 'Shenzhen', countryIso2: 'DE' }),
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/china-post|深圳|Yiwu|"CN"/);

    // Without dropshipper settings the widget shows the shipment as it is.
    await api(app, { token: t.token })
      .put(`/tracking_pages/${pageId}`, { dropshipperSettings: { enabled: false } })
      .expect(200);
    const plain = await lookup(widget.id, trackingNumber);
    expect(plain.body.shipments[0]).toMatchObject({ originCarrier: 'china-post' });
    expect(plain.body.shipments[0].checkpoints[1].info).toBe('Departed 深圳 hub Yiwu');
  });
});
