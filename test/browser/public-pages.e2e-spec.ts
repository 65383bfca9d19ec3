import type { NestExpressApplication } from '@nestjs/platform-express';
import type { BrowserContext, Page } from 'playwright-core';
import { createTrackingSite, type TrackingSite } from '../factories/tracking-site.factory';
import { closeTestApp, createTestApp, testAppUrl } from '../support/app';
import { axeViolations, launchBrowser, requireChromium, type Browser } from './support/browser';

/**
 * README "API conventions", public pages: a tracking page and its home load in Chromium with
 * no console error and no failed request (the favicon and robots.txt answer), carry a meta
 * description and an icon, and pass axe, on a phone and a desktop viewport. (Lighthouse is not
 * installable offline; these are the checks of its best-practices and SEO audits we can run.)
 */
describe('public pages in a browser', () => {
  let app: NestExpressApplication;
  let base: string;
  let browser: Browser;
  let site: TrackingSite;

  beforeAll(async () => {
    requireChromium();
    app = await createTestApp({ listen: true });
    base = testAppUrl(app);
    browser = await launchBrowser(base);
    site = await createTrackingSite(app, { prefixes: ['200'], origin: base });
  });
  afterAll(async () => {
    await browser?.close();
    await closeTestApp(app);
  });

  const VIEWPORTS = [
    ['mobile', { width: 375, height: 740 }],
    ['desktop', { width: 1280, height: 900 }],
  ] as const;

  /** Opens a page, recording console errors, page errors and failed or refused requests. */
  async function open(context: BrowserContext, path: string) {
    const problems: string[] = [];
    const page: Page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`);
    });
    const res = await page.goto(`${base}${path}`);
    expect(res?.status()).toBe(200);
    await page.waitForLoadState('networkidle');
    return { page, problems };
  }

  it.each(VIEWPORTS)(
    '%s: no console errors, an icon, a description, axe passes',
    async (_n, viewport) => {
      const context = await browser.context({ viewport, locale: 'en-US' });
      for (const path of [`/t/${site.parcels['200'].hash}`, `/track/${site.subdomain}`]) {
        const { page, problems } = await open(context, path);
        const description = await page.getAttribute('meta[name="description"]', 'content');
        expect(description?.length).toBeGreaterThan(5);
        const icon = await page.getAttribute('link[rel="icon"]', 'href');
        expect(icon).toBeTruthy();
        const iconAnswer = await page.request.get(new URL(icon!, `${base}${path}`).toString());
        expect(iconAnswer.status()).toBe(200);
        expect(iconAnswer.headers()['content-type']).toMatch(/^image\//);
        // What a browser asks of every site on its own.
        for (const file of ['/favicon.ico', '/robots.txt'])
          expect((await page.request.get(`${base}${file}`)).status()).toBe(200);
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
        await page.close();
      }
      await context.close();
    },
  );

  it('robots.txt keeps crawlers off the capability links', async () => {
    const res = await fetch(`${base}/robots.txt`);
    const text = await res.text();
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text).toMatch(/^Disallow: \/t\/$/m);
    expect(text).toMatch(/^Disallow: \/public\/$/m);
  });
});
