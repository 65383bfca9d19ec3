import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { PNG } from '../factories/media.factory';
import { createTrackingSite, type TrackingSite } from '../factories/tracking-site.factory';
import { closeTestApp, createTestApp, testAppUrl } from '../support/app';
import {
  axeViolations,
  launchBrowser,
  requireChromium,
  screenshot,
  scrollsSideways,
  type Browser,
} from './support/browser';

/**
 * What a customer sees, in a real browser (Debian's chromium through playwright-core),
 * against the real app on a loopback port.
 */
describe('the tracking page in a browser', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let base: string;
  let browser: Browser;
  let site: TrackingSite;
  let context: BrowserContext;
  /** A shop's CDN on loopback, reached only by the app's image proxy (never the browser). */
  let cdn: Server;
  let cdnBase: string;
  /** CSP reports and script errors of every page opened. */
  const pageErrors: string[] = [];

  const open = async (path: string, ctx: BrowserContext = context): Promise<Page> => {
    const page = await ctx.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(`${path}: ${m.text()}`);
    });
    page.on('pageerror', (e) => pageErrors.push(`${path}: ${e.message}`));
    const res = await page.goto(`${base}${path}`);
    expect(res?.status()).toBeLessThan(500);
    return page;
  };
  const link = (prefix: string, query = '') => `/t/${site.parcels[prefix].hash}${query}`;

  beforeAll(async () => {
    // First, so that nothing is left open when chromium is missing.
    requireChromium();
    cdn = createServer((req, res) => {
      if (req.url === '/missing.png') {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(PNG);
    });
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
    cdnBase = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
    process.env.IMAGE_PROXY_ALLOWED_HOSTS = '127.0.0.1';
    app = await createTestApp({ listen: true });
    db = app.get(DataSource);
    base = testAppUrl(app);
    browser = await launchBrowser(base);
    site = await createTrackingSite(app, {
      prefixes: ['200', '102', '410', '202', '418'],
      origin: base,
    });
    // The other parcels' items show images of the shop's CDN (through the proxy).
    await db.query(
      `UPDATE order_item SET image_url = $1 || '/p/' || id || '.png'
        WHERE image_url LIKE 'https://cdn.shop.example/%'`,
      [cdnBase],
    );
    context = await browser.context({
      viewport: { width: 1280, height: 900 },
      locale: 'en-US',
      timezoneId: 'Europe/Berlin',
    });
  });
  afterAll(async () => {
    await db?.query(`DELETE FROM rate_limit_counter`);
    await browser?.close();
    await closeTestApp(app);
    delete process.env.IMAGE_PROXY_ALLOWED_HOSTS;
    await new Promise((resolve) => cdn?.close(resolve));
  });

  it('shows each status in plain words, on the stepper, with its history', async () => {
    const cases: Array<[string, string, string]> = [
      ['200', 'Delivered', 'Delivered'],
      ['102', 'On its way', 'In transit'],
      ['410', 'Delivery attempt failed', 'Delivery attempt failed'],
      ['202', 'Ready for pickup', 'Ready for pickup'],
      ['418', 'Label created', 'Ordered'],
    ];
    for (const [prefix, headline, step] of cases) {
      const page = await open(link(prefix));
      expect(await page.locator('h1').innerText()).toBe(headline);
      expect(await page.locator('.steps [aria-current="step"]').innerText()).toContain(step);
      expect(await page.locator('.timeline li').count()).toBeGreaterThan(0);
      const older = page.locator('details .timeline li');
      if ((await older.count()) > 0) {
        expect(await older.first().isVisible()).toBe(false);
        await page.locator('details summary').click();
        expect(await older.first().isVisible()).toBe(true);
      }
      expect(await page.locator('.brand').innerText()).toBe('Acme Outdoor');
      expect(await page.locator('.facts dd').first().innerText()).toBe(
        site.parcels[prefix].trackingNumber,
      );
      await page.close();
    }
    const delivered = await open(link('200'));
    expect(await delivered.locator('.eta').innerText()).toMatch(/day, /);
    expect(await delivered.locator('.items li').first().innerText()).toContain('Trail jacket');
    // The uploaded item image is served by the app and loads.
    const loaded = await delivered
      .locator('.items img')
      .evaluate((img: any) => img.complete && img.naturalWidth > 0);
    expect(loaded).toBe(true);
    expect(await delivered.locator('.parcels li').count()).toBe(4);
    await delivered.locator('.parcels a', { hasText: site.parcels['410'].trackingNumber }).click();
    await delivered.waitForURL(`**/t/${site.parcels['410'].hash}*`);
    expect(await delivered.locator('h1').innerText()).toBe('Delivery attempt failed');
    await delivered.close();
  });

  it('shows times in the browser zone, or in the zone the link names', async () => {
    const [cp] = await db.query(
      `SELECT checkpoint_date FROM tracking_checkpoint WHERE shipment_id = $1
        ORDER BY checkpoint_date DESC LIMIT 1`,
      [site.parcels['102'].id],
    );
    const inZone = (timeZone: string) =>
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
        cp.checkpoint_date,
      );
    const local = await open(link('102'));
    expect(await local.locator('.timeline time').first().innerText()).toBe(inZone('Europe/Berlin'));
    expect(await local.locator('#tz-note').innerText()).toContain('Central European');
    const fixed = await open(link('102', '?tz=Asia/Tokyo'));
    expect(await fixed.locator('.timeline time').first().innerText()).toBe(inZone('Asia/Tokyo'));
    await local.close();
    await fixed.close();
  });

  it('switches language from the menu', async () => {
    const page = await open(link('102'));
    await page.getByRole('link', { name: 'Deutsch' }).click();
    await page.waitForURL('**lang=de');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('h1').innerText()).toBe('Unterwegs');
    expect(await page.locator('#history-title').innerText()).toBe('Sendungsverlauf');
    await page.getByRole('link', { name: 'Русский' }).click();
    await page.waitForURL('**lang=ru');
    expect(await page.locator('h1').innerText()).toBe('В пути');
    await page.close();
  });

  it('takes a review with stars and a comment, with and without JavaScript', async () => {
    const page = await open(link('200'));
    await page.locator('label[for="score-4"]').click();
    await page.locator('#comment').fill('Fast and well packed');
    await page.getByRole('button', { name: 'Send review' }).click();
    await page.waitForURL('**review=thanks*');
    expect(await page.getByRole('status').innerText()).toBe('Thank you for your review!');
    expect(await page.locator('#score-4').isChecked()).toBe(true);
    const [review] = await db.query(
      `SELECT total_score, comment FROM review WHERE shipment_id = $1`,
      [site.parcels['200'].id],
    );
    expect(review).toEqual({ total_score: 4, comment: 'Fast and well packed' });
    await page.close();

    const noScript = await browser.context({ javaScriptEnabled: false, locale: 'fr-FR' });
    const plain = await open(link('200'), noScript);
    expect(await plain.locator('h1').innerText()).toBe('Livré');
    await plain.locator('label[for="score-5"]').click();
    await plain.getByRole('button', { name: 'Envoyer mon avis' }).click();
    await plain.waitForURL('**review=thanks*');
    expect(await plain.getByRole('status').innerText()).toBe('Merci pour votre avis !');
    const [updated] = await db.query(`SELECT total_score FROM review WHERE shipment_id = $1`, [
      site.parcels['200'].id,
    ]);
    expect(updated.total_score).toBe(5);
    await noScript.close();
  });

  it('finds an order from the home page by order number and e-mail', async () => {
    const page = await open(`/track/${site.subdomain}`);
    expect(await page.locator('h1').innerText()).toBe('Acme Outdoor');
    await page.getByLabel('Order number').fill(site.orderNumber);
    await page.getByLabel('E-mail or phone number').fill(site.email);
    await page.getByRole('button', { name: 'Track' }).nth(1).click();
    await page.waitForURL('**/t/**');
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.locator('.parcels li').count()).toBe(4);

    await page.goto(`${base}/track/${site.subdomain}?lang=it`);
    await page.getByLabel('Numero d’ordine').fill(site.orderNumber);
    await page.getByLabel('E-mail o telefono').fill('not-the-buyer@example.test');
    await page.getByRole('button', { name: 'Traccia' }).nth(1).click();
    expect(await page.getByRole('alert').innerText()).toContain('Non abbiamo trovato');
    await page.close();
  });

  it('passes axe-core (WCAG 2.1 AA) and fits 360 px to desktop without sideways scrolling', async () => {
    const paths = [
      link('200'),
      link('410', '?lang=de'),
      `/track/${site.subdomain}`,
      '/t/not-a-real-hash-at-all-1234',
    ];
    const violations: string[] = [];
    for (const width of [360, 375, 1280]) {
      const ctx = await browser.context({ viewport: { width, height: 800 } });
      for (const path of paths) {
        const page = await open(path, ctx);
        if (await scrollsSideways(page)) violations.push(`${width}px ${path}: scrolls sideways`);
        if (width !== 360)
          for (const v of await axeViolations(page))
            violations.push(`${width}px ${path}: ${v.id} (${v.impact}) ${v.help} ${v.targets}`);
        await page.close();
      }
      await ctx.close();
    }
    expect(violations).toEqual([]);
  });

  it('keeps screenshots at 375 px and 1280 px', async () => {
    for (const width of [375, 1280]) {
      const ctx = await browser.context({
        viewport: { width, height: 900 },
        timezoneId: 'Europe/Berlin',
      });
      const page = await open(link('410'), ctx);
      await screenshot(page, `tracking-page-${width}`);
      const delivered = await open(link('200', '?review=thanks'), ctx);
      await screenshot(delivered, `tracking-page-delivered-${width}`);
      const home = await open(`/track/${site.subdomain}`, ctx);
      await screenshot(home, `tracking-home-${width}`);
      await ctx.close();
    }
  });

  it('shows the shop’s product images through the proxy, the placeholder when one fails', async () => {
    const loaded = "document.querySelector('.items img').complete";
    const width = (p: Page) =>
      p
        .locator('.items img')
        .evaluate((e) => (e as unknown as { naturalWidth: number }).naturalWidth);
    const page = await open(link('102'));
    expect(await page.locator('.items img').getAttribute('src')).toMatch(/^\/public\/images\//);
    await page.waitForFunction(loaded);
    expect(await width(page)).toBe(1);
    expect(await page.locator('.items img').isVisible()).toBe(true);
    // An image the shop no longer has: the proxy answers 502 (`Image unavailable.`), the
    // lettered placeholder stays.
    await db.query(
      `UPDATE order_item SET image_url = $1
        WHERE id IN (SELECT order_item_id FROM shipment_item WHERE shipment_id = $2)`,
      [`${cdnBase}/missing.png`, site.parcels['102'].id],
    );
    const broken = await open(link('102'));
    await broken.waitForFunction(loaded);
    expect(await width(broken)).toBe(0);
    expect(await broken.locator('.items .ph > span').innerText()).toBe('H');
  });

  it('shows our delivery window when the carrier gives no date, and says plainly when late', async () => {
    const id = site.parcels['102'].id;
    const [before] = await db.query(
      `SELECT delivery_prediction, attention, attention_codes FROM shipment WHERE id = $1`,
      [id],
    );
    await db.query(
      `UPDATE shipment SET delivery_prediction = $2::jsonb, attention = 'late',
              attention_codes = '{late}' WHERE id = $1`,
      [
        id,
        JSON.stringify({
          earliest: '2026-12-01T09:00:00+00:00',
          likely: '2026-12-02T12:00:00+00:00',
          latest: '2026-12-03T15:00:00+00:00',
          confidence: 0.8,
          basis: { kind: 'history', level: 'lane', deliveries: 120 },
        }),
      ],
    );
    try {
      const en = await open(link('102'));
      // ICU separates the range with thin spaces.
      const days = async (page: Page) =>
        (await page.locator('.delivery-window').innerText()).replace(/\s/g, ' ');
      expect(await days(en)).toBe('Tue, Dec 1 – Thu, Dec 3');
      expect(await en.getByRole('status').innerText()).toContain('running late');
      expect(await axeViolations(en)).toEqual([]);
      await en.close();
      const de = await open(link('102', '?lang=de'));
      expect(await days(de)).toBe('Di., 1. – Do., 3. Dez.');
      expect(await de.locator('.running-late').innerText()).toContain('verspätet');
      await de.close();
    } finally {
      await db.query(
        `UPDATE shipment SET delivery_prediction = $2::jsonb, attention = $3,
                attention_codes = $4 WHERE id = $1`,
        [id, before.delivery_prediction, before.attention, before.attention_codes],
      );
    }
  });

  it('loaded nothing from outside loopback and broke no CSP rule', () => {
    expect(browser.foreignRequests).toEqual([]);
    // The one the shop no longer has (previous test) is the proxy's 502.
    expect(pageErrors.filter((e) => !/status of (404|502)/.test(e))).toEqual([]);
  });
});
