import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { HOME_SEARCHES_PER_WINDOW } from '../src/tracking-pages/page/home-search.service';
import { createTrackingSite, type TrackingSite } from './factories/tracking-site.factory';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

const XSS = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

/** The nonces of a page's script and style elements, and of its CSP header. */
function nonces(html: string, csp: string) {
  return {
    elements: [...html.matchAll(/<(script|style)\b([^>]*)>/g)].map((m) => m[2]),
    csp: [...csp.matchAll(/'nonce-([^']+)'/g)].map((m) => m[1]),
  };
}

describe('the public tracking site (HTTP)', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let site: TrackingSite;
  const http = () => request(app.getHttpServer());
  const page = (prefix: string, query = '') =>
    http().get(`/t/${site.parcels[prefix].hash}${query}`);
  const search = (subdomain: string, body: Record<string, string>) =>
    http().post(`/track/${subdomain}`).type('form').send(body);

  beforeAll(async () => {
    app = await createTestApp();
    db = app.get(DataSource);
    site = await createTrackingSite(app, { prefixes: ['200', '102', '410'] });
  });
  afterEach(() => db.query(`DELETE FROM rate_limit_counter`));
  afterAll(() => closeTestApp(app));

  it('shows a delivered parcel: status, progress, items, other parcels, review form', async () => {
    const res = await page('200').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    const html = res.text;
    expect(html).toContain('<h1 id="status-title">Delivered</h1>');
    expect(html.match(/<li class="done">/g)).toHaveLength(4);
    expect(html).toContain('aria-current="step"');
    expect(html).toContain('Trail jacket');
    expect(html).toContain('Quantity: 2');
    // The item's image is on the shop's CDN: the page loads it through its own image proxy,
    // nothing from third parties.
    expect(html).not.toContain('src="https://cdn.shop.example');
    expect(html).toContain(`src="/public/images/`);
    expect(html).toContain(site.parcels['102'].trackingNumber);
    expect(html).toContain('Delivery attempt failed');
    expect(html).toContain(
      `action="/public/tracking_page_links/${site.parcels['200'].hash}/reviews"`,
    );
    expect(html).toContain('TrackMage Test Carrier');
    expect(html).toContain('--tp-header-background-color:#0b3d2e');
    expect(html).toContain('"Georgia"');
    // A parcel on its way has no review form, and its exception shows on the stepper.
    const failed = await page('410').expect(200);
    expect(failed.text).toContain('<li class="current alert" aria-current="step">');
    expect(failed.text).not.toContain('id="review"');
  });

  it('links the carrier site, applies dropshipper settings and the page field settings', async () => {
    const shop = await createTrackingSite(app, {
      prefixes: ['102', '418'],
      page: { sidebarField: 'customFields.box', trackingNumberField: 'orderNumbers' },
    });
    const parcel = shop.parcels['102'];
    await db.query(
      `UPDATE shipment SET destination_carrier = 'ups', origin_carrier = 'china-post' WHERE id = $1`,
      [parcel.id],
    );
    await db.query(`UPDATE shipment SET custom_fields = '{"box": "Box B"}'::jsonb WHERE id = $1`, [
      shop.parcels['418'].id,
    ]);
    const res = await http().get(`/t/${parcel.hash}`).expect(200);
    expect(res.text).toContain(
      `href="https://www.ups.com/track?tracknum=${parcel.trackingNumber}" rel="noopener noreferrer"`,
    );
    expect(res.text).toContain(
      `<div class="wide"><dt>Order number</dt><dd>${shop.orderNumber}</dd></div>`,
    );
    expect(res.text).toContain('<span>Box B</span>');

    await db.query(
      `UPDATE tracking_checkpoint SET info = 'Left 深圳 hub SecretCo' WHERE shipment_id = $1`,
      [parcel.id],
    );
    await api(app, { token: shop.tenant.token })
      .put(`/tracking_pages/${shop.pageId}`, {
        subdomain: shop.subdomain,
        dropshipperSettings: {
          enabled: true,
          blacklistCarriers: ['ups'],
          hideHieroglyphs: true,
          stopWords: 'SecretCo',
          originCountryReplacement: 'DE',
        },
      })
      .expect(200);
    const hidden = await http().get(`/t/${parcel.hash}`).expect(200);
    expect(hidden.text).not.toContain('ups.com');
    expect(hidden.text).not.toContain('深圳');
    expect(hidden.text).not.toContain('SecretCo');
    expect(hidden.text).toContain('Left hub');
    expect(hidden.text).toContain('<dt>From</dt><dd>Germany</dd>');
  });

  it('sends a strict CSP whose nonces are the ones of the page', async () => {
    const res = await page('200').expect(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const { elements, csp: allowed } = nonces(res.text, csp);
    expect(elements).toHaveLength(2);
    for (const attrs of elements) expect(attrs).toBe(` nonce="${allowed[0]}"`);
    expect(new Set(allowed).size).toBe(1);
    const again = await page('200').expect(200);
    expect(again.headers['content-security-policy']).not.toBe(csp);
    expect(res.text).not.toMatch(/\son[a-z]+=/i);
  });

  it('escapes every value: page title, workspace title, checkpoints, items', async () => {
    const evil = await createTrackingSite(app, {
      prefixes: ['102'],
      title: XSS,
      workspaceTitle: XSS,
      page: { sidebarField: XSS, trackingNumberField: 'customFields.ref' },
    });
    const parcel = evil.parcels['102'];
    await db.query(
      `UPDATE shipment SET custom_fields = jsonb_build_object('ref', $2::text) WHERE id = $1`,
      [parcel.id, XSS],
    );
    await db.query(`UPDATE order_item SET product_name = $2 WHERE workspace_id = $1`, [
      evil.tenant.workspaceId,
      XSS,
    ]);
    await db.query(
      `UPDATE tracking_checkpoint SET info = $2, location = $2 WHERE shipment_id = $1`,
      [parcel.id, XSS],
    );
    const res = await http().get(`/t/${parcel.hash}?lang=${encodeURIComponent('"><x>')}`);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>alert');
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(res.text.match(/<script\b/g)).toHaveLength(1);
    const home = await http().get(`/track/${evil.subdomain}`).expect(200);
    expect(home.text).not.toContain('<script>alert');
    expect(home.text).toContain('&lt;script&gt;');
  });

  it('answers 404 pages for unknown links, disabled pages and unknown homes', async () => {
    for (const path of [
      '/t/not-a-real-hash-at-all-1234',
      '/t/x',
      '/track/no-such-shop-here',
      '/track/%00',
      '/track/UPPER',
    ])
      expect((await http().get(path).set('Accept-Language', 'de')).status).toBe(404);
    const res = await http().get('/t/not-a-real-hash-at-all-1234').set('Accept-Language', 'de');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('Link nicht gefunden');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    const other = await createTrackingSite(app, { prefixes: ['102'] });
    await db.query(`UPDATE tracking_page SET enabled = false WHERE id = $1`, [other.pageId]);
    await http().get(`/t/${other.parcels['102'].hash}`).expect(404);
    await http().get(`/track/${other.subdomain}`).expect(404);
  });

  it('speaks the visitor language and zone: ?lang=, Accept-Language, ?tz=', async () => {
    const de = await page('102').set('Accept-Language', 'nl, de;q=0.8').expect(200);
    expect(de.text).toContain('<html lang="de"');
    expect(de.text).toContain('Sendungsverlauf');
    const fr = await page('102', '?lang=fr').set('Accept-Language', 'de').expect(200);
    expect(fr.text).toContain('Historique du suivi');
    const ru = await page('200', '?lang=ru').expect(200);
    expect(ru.text).toContain('Доставлена');
    const [cp] = await db.query(
      `SELECT checkpoint_date FROM tracking_checkpoint WHERE shipment_id = $1
        ORDER BY checkpoint_date DESC LIMIT 1`,
      [site.parcels['102'].id],
    );
    const tokyo = new Intl.DateTimeFormat('en', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Asia/Tokyo',
    }).format(cp.checkpoint_date);
    const inTokyo = await page('102', '?lang=en&tz=Asia/Tokyo').expect(200);
    expect(inTokyo.text).toContain(tokyo);
    expect(inTokyo.text).toContain('Japan Standard Time');
    expect(inTokyo.text).toContain('data-tz-fixed');
    const bad = await page('102', '?tz=Mars/Base').expect(200);
    expect(bad.text).toContain('data-tz="UTC"');
  });

  it('takes a review from the form (no JavaScript) and redirects back', async () => {
    const hash = site.parcels['200'].hash;
    const post = (body: Record<string, string>) =>
      http().post(`/public/tracking_page_links/${hash}/reviews`).type('form').send(body);
    const refused = await post({ score: '9', comment: 'no', lang: 'de' }).expect(303);
    expect(refused.headers.location).toBe(`/t/${hash}?review=invalid&lang=de#review`);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM review WHERE shipment_id = $1`, [
      site.parcels['200'].id,
    ]);
    expect(n).toBe(0);
    const ok = await post({
      score: '4',
      comment: 'Quick <b>and</b>\u0000 fine',
      tz: 'Europe/Paris',
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe(`/t/${hash}?review=thanks&tz=Europe%2FParis#review`);
    const [review] = await db.query(
      `SELECT total_score, comment FROM review WHERE shipment_id = $1`,
      [site.parcels['200'].id],
    );
    expect(review).toEqual({ total_score: 4, comment: 'Quick <b>and</b> fine' });
    const shown = await page('200', '?review=thanks').expect(200);
    expect(shown.text).toContain('Thank you for your review!');
    expect(shown.text).toContain('Your rating: 4 of 5.');
    // The form is answered with the page whatever Accept says; JSON clients negotiate.
    const asJson = await post({ score: '5' }).set('Accept', 'application/json').expect(303);
    expect(asJson.headers.location).toBe(`/t/${hash}?review=thanks#review`);
    await api(app, { accept: 'application/xml' })
      .post(`/public/tracking_page_links/${hash}/reviews`, { score: 1 })
      .expect(406);
    const [{ total_score }] = await db.query(
      `SELECT total_score FROM review WHERE shipment_id = $1`,
      [site.parcels['200'].id],
    );
    expect(total_score).toBe(5);
    // JSON clients keep the JSON answer.
    await api(app).post(`/public/tracking_page_links/${hash}/reviews`, { score: 5 }).expect(201);
    const unknown = await http()
      .post('/public/tracking_page_links/unknown-hash-unknown-hash-1/reviews')
      .type('form')
      .send({ score: '3', lang: 'pt' })
      .expect(404);
    expect(unknown.text).toContain('Link não encontrado');
  });

  it('finds a parcel from the home page, in its workspace only, saying nothing more', async () => {
    const home = await http().get(`/track/${site.subdomain}?lang=es`).expect(200);
    expect(home.text).toContain('Número de pedido');
    expect(home.text).toContain(`action="/track/${site.subdomain}?lang=es"`);
    const byNumber = await search(site.subdomain, {
      by: 'trackingNumber',
      trackingNumber: site.parcels['102'].trackingNumber.toLowerCase(),
    }).expect(303);
    expect(byNumber.headers.location).toBe(`/t/${site.parcels['102'].hash}?lang=en`);
    const byOrder = await search(site.subdomain, {
      by: 'order',
      orderNumber: site.orderNumber,
      contact: site.email.toUpperCase(),
      lang: 'it',
    }).expect(303);
    expect(byOrder.headers.location).toMatch(/^\/t\/[A-Za-z0-9_-]{43}\?lang=it$/);
    await search(site.subdomain, {
      by: 'order',
      orderNumber: site.orderNumber,
      contact: '0151 234 567 89',
    }).expect(303);

    const wrongEmail = await search(site.subdomain, {
      by: 'order',
      orderNumber: site.orderNumber,
      contact: 'someone@else.example',
    }).expect(200);
    const noOrder = await search(site.subdomain, {
      by: 'order',
      orderNumber: 'NO-SUCH-ORDER',
      contact: 'someone@else.example',
    }).expect(200);
    const strip = (html: string) =>
      html.replace(/nonce="[^"]+"/g, '').replace(/value="[^"]*"/g, '');
    expect(strip(wrongEmail.text)).toBe(strip(noOrder.text));
    expect(wrongEmail.text).toContain('We could not find a parcel matching these details.');

    // Another workspace's parcel is not found through this page.
    const other = await createTrackingSite(app, { prefixes: ['102'] });
    await search(site.subdomain, {
      by: 'trackingNumber',
      trackingNumber: other.parcels['102'].trackingNumber,
    }).expect(200);
    await search(site.subdomain, { by: 'order', orderNumber: site.orderNumber }).expect(422);
  });

  it('rate-limits searches per page and client address', async () => {
    const body = { by: 'trackingNumber', trackingNumber: 'TM999NOPE1TM' };
    for (let i = 0; i < HOME_SEARCHES_PER_WINDOW; i++)
      await search(site.subdomain, body).expect(200);
    const blocked = await search(site.subdomain, body).expect(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.text).toContain('Too many attempts');
    // Even a right answer waits; the budget is the page's: another page's is untouched.
    await search(site.subdomain, {
      by: 'trackingNumber',
      trackingNumber: site.parcels['200'].trackingNumber,
    }).expect(429);
    const other = await createTrackingSite(app, { prefixes: ['102'] });
    await search(other.subdomain, body).expect(200);
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM rate_limit_counter WHERE throttler = 'tracking-home-search'`,
    );
    expect(n).toBe(2);
  });

  it('serves the home at a verified custom domain; other hosts keep the API entrypoint', async () => {
    const domain = `track-${site.tenant.workspaceId.slice(0, 8)}.shop.example`;
    await db.query(`UPDATE tracking_page SET domain = $2, domain_enabled = true WHERE id = $1`, [
      site.pageId,
      domain,
    ]);
    const home = await http().get('/').set('Host', domain).expect(200);
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    expect(home.text).toContain(`action="/track/${site.subdomain}?lang=en"`);
    const found = await http()
      .post(`/track/${site.subdomain}`)
      .set('Host', domain)
      .type('form')
      .send({ by: 'trackingNumber', trackingNumber: site.parcels['200'].trackingNumber })
      .expect(303);
    expect(found.headers.location).toBe(`/t/${site.parcels['200'].hash}?lang=en`);
    await db.query(`UPDATE tracking_page SET domain_enabled = false WHERE id = $1`, [site.pageId]);
    const api1 = await http().get('/').set('Host', domain).set('Accept', 'application/ld+json');
    expect(api1.status).toBe(200);
    expect(api1.headers['content-type']).toMatch(/^application\/ld\+json/);
  });
});
