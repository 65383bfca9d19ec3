import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extractBrand, stylesheetUrls } from '../../src/themes/brand-extractor';
import { htmlToText } from '../../src/email-notifications/email-template';
import { createTenant, type Tenant } from '../factories/tenant.factory';
import { closeTestApp, createTestApp } from '../support/app';
import { api } from '../support/http';

/**
 * Issue 11 item 9: untrusted HTML (e-mail bodies, fetched shop pages and stylesheets) is read
 * by a linear-time parser, and inputs are capped. Adversarial inputs that made the former
 * regular expressions backtrack for seconds must return, with the right answer; the test
 * asserts answers, not timings.
 */
describe('security: HTML parsing of untrusted input', () => {
  let app: NestExpressApplication;
  let tenant: Tenant;
  let shop: Server;
  let base: string;

  const hostilePage =
    '<html><head><title>Evil &amp; Co</title><style>' +
    '/*'.repeat(20_000) +
    '</style><meta name="theme-color" content="#8e24aa"></head><body>' +
    '<'.repeat(200_000) +
    '<a '.repeat(50_000) +
    '</body></html>';
  const hostileCss = 'a'.repeat(200_000) + '{color:' + ' '.repeat(100_000);

  beforeAll(async () => {
    shop = createServer((req, res) => {
      if (req.url === '/') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return res.end(
          hostilePage.replace('<head>', '<head><link rel="stylesheet" href="/s.css">'),
        );
      }
      res.writeHead(200, { 'Content-Type': 'text/css' });
      res.end(hostileCss);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    process.env.THEME_FETCH_ALLOWED_HOSTS = '127.0.0.1';
    app = await createTestApp();
    tenant = await createTenant(app);
  });
  afterAll(async () => {
    delete process.env.THEME_FETCH_ALLOWED_HOSTS;
    await closeTestApp(app);
    await new Promise((resolve) => shop.close(resolve));
  });

  it('previews a body of 99 000 "<" and answers its text', async () => {
    const body = '<'.repeat(99_000);
    const res = await api(app, { token: tenant.token })
      .post('/email_notifications/preview', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        body,
      })
      .expect(200);
    expect(res.body.text).toBe(body);
  });

  it('previews unclosed links and tags', async () => {
    const body = '<b><p '.repeat(3_000) + '><a href="https://x.test">Track</a>';
    const res = await api(app, { token: tenant.token })
      .post('/email_notifications/preview', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        body,
      })
      .expect(200);
    expect(res.body.text).toBe('Track (https://x.test)');
  });

  it('refuses a draft body longer than a stored one may be, before parsing it', async () => {
    const res = await api(app, { token: tenant.token })
      .post('/email_notifications/preview', {
        workspace: `/workspaces/${tenant.workspaceId}`,
        body: '<'.repeat(200_000),
      })
      .expect(422);
    expect(res.body.violations[0].propertyPath).toBe('body');
  });

  it('htmlToText reads 200 000 "<" as text', () => {
    expect(htmlToText('<'.repeat(200_000))).toBe('<'.repeat(200_000));
  });

  it('extracts a brand from a hostile page and stylesheet', () => {
    const brand = extractBrand(hostilePage, 'https://shop.test/', [hostileCss]);
    expect(brand.name).toBe('Evil & Co');
    expect(brand.colors.primary).toBe('#8e24aa');
    expect(
      stylesheetUrls(
        '<link rel=stylesheet href="/a.css">' + '<'.repeat(200_000),
        'https://s.test/',
      ),
    ).toEqual(['https://s.test/a.css']);
  });

  it('generates a theme from a hostile shop over HTTP', async () => {
    const res = await api(app)
      .post('/public/generate-theme', { url: `${base}/` })
      .expect(201);
    expect(res.body.colors.primary).toBe('#8e24aa');
  });
});
