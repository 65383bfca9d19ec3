import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createTenant } from './factories/tenant.factory';

/**
 * POST /public/generate-theme against a local shop (HTML, a stylesheet, a redirect, errors) on
 * 127.0.0.1, which THEME_FETCH_ALLOWED_HOSTS lets the fetcher reach; other private addresses
 * stay refused.
 */

const SHOP_HTML = `<!doctype html><html><head>
<title>Nordic Knits</title>
<meta name="theme-color" content="#8e24aa">
<link rel="stylesheet" href="/assets/shop.css">
<link rel="icon" href="/favicon.png">
<style>body { background: #fffdf7; color: #2d2a26; font-family: "Merriweather", serif; }</style>
</head><body><header><img id="logo" src="/img/nordic-logo.png" alt="Nordic Knits"></header></body></html>`;
const SHOP_CSS = `h1, h2, h3 { font-family: "Playfair Display", Georgia, serif; }
.button--primary { background-color: #8e24aa; }
.announcement-bar { background-color: #00897b; color: #fff; }`;

describe('POST /public/generate-theme', () => {
  let app: NestExpressApplication;
  let shop: Server;
  let base: string;
  const hits: string[] = [];

  beforeAll(async () => {
    shop = createServer((req, res) => {
      hits.push(req.url!);
      switch (req.url) {
        case '/':
        case '/shop':
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
          return res.end(SHOP_HTML);
        case '/assets/shop.css':
          res.writeHead(200, { 'Content-Type': 'text/css' });
          return res.end(SHOP_CSS);
        case '/moved':
          res.writeHead(301, { Location: '/shop' });
          return res.end();
        case '/image.png':
          res.writeHead(200, { 'Content-Type': 'image/png' });
          return res.end(Buffer.alloc(10));
        case '/huge':
          res.writeHead(200, { 'Content-Type': 'text/html' });
          return res.end('<p>'.repeat(1_000_000));
        default:
          res.writeHead(404, { 'Content-Type': 'text/html' });
          return res.end('<h1>Not found</h1>');
      }
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    process.env.THEME_FETCH_ALLOWED_HOSTS = '127.0.0.1';
    app = await createTestApp();
  });

  afterAll(async () => {
    await closeTestApp(app);
    await new Promise((resolve) => shop.close(resolve));
  });

  it('makes a theme of the shop’s colours, fonts and logo, without a token', async () => {
    const res = await api(app)
      .post('/public/generate-theme', { url: `${base}/` })
      .expect(201);
    expect(res.body).toMatchObject({
      '@type': 'GeneratedTheme',
      '@id': `/public/generate-theme/${res.body.themeId}`,
      link: `/public/generate-theme/${res.body.themeId}`,
      name: 'Nordic Knits',
      sourceUrl: `${base}/`,
      logo: `${base}/img/nordic-logo.png`,
      favicon: `${base}/favicon.png`,
      colors: { primary: '#8e24aa', secondary: '#00897b', background: '#fffdf7', text: '#2d2a26' },
      fonts: { heading: 'Playfair Display', body: 'Merriweather' },
      detected: { primary: true, secondary: true, background: true, text: true },
      builder: {
        header: {
          backgroundColor: '#8e24aa',
          textColor: '#ffffff',
          logo: `${base}/img/nordic-logo.png`,
        },
        general: { backgroundColor: '#fffdf7', fontFamily: 'Merriweather' },
      },
    });
    expect(res.body.css).toContain('--tp-header-background-color: #8e24aa;');
    expect(hits).toContain('/assets/shop.css');

    const stored = await api(app).get(res.body.link).expect(200);
    expect(stored.body.colors).toEqual(res.body.colors);
    expect(stored.body.themeId).toBe(res.body.themeId);
    await api(app).get('/public/generate-theme/00000000-0000-4000-8000-000000000000').expect(404);
    await api(app).get('/public/generate-theme/nope').expect(404);
  });

  it('reuses a recent theme of the same address when asked, and follows redirects', async () => {
    const first = await api(app)
      .post('/public/generate-theme', { url: `${base}/moved` })
      .expect(201);
    expect(first.body.sourceUrl).toBe(`${base}/shop`);
    const before = hits.length;
    const reused = await api(app)
      .json()
      .post('/public/generate-theme', { url: `${base}/moved`, reuse: true })
      .expect(201);
    expect(reused.body.themeId).toBe(first.body.themeId);
    expect(hits.length).toBe(before);
    const fresh = await api(app)
      .post('/public/generate-theme', { url: `${base}/moved` })
      .expect(201);
    expect(fresh.body.themeId).not.toBe(first.body.themeId);
  });

  it('explains pages it cannot use', async () => {
    const problem = async (url: string) =>
      (await api(app).post('/public/generate-theme', { url }).expect(422)).body.violations[0];
    expect(await problem(`${base}/missing`)).toEqual({
      propertyPath: 'url',
      message: 'The page could not be fetched: the site answered HTTP 404.',
      code: expect.any(String),
    });
    expect((await problem(`${base}/image.png`)).message).toBe(
      'The address does not serve an HTML page.',
    );
    expect((await problem(`${base}/huge`)).message).toBe(
      'The page could not be fetched: the page is larger than 2000000 bytes.',
    );
    expect((await problem('http://127.0.0.1:1/')).message).toMatch(
      /^The page could not be fetched: the site could not be reached/,
    );
  });

  it('never fetches private addresses that are not allowed', async () => {
    for (const url of [
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/',
    ])
      expect(
        (await api(app).post('/public/generate-theme', { url }).expect(422)).body.violations[0]
          .message,
      ).toBe('The page could not be fetched: the address is not a public internet address.');
  });

  it('refuses bad input with 400 or 422', async () => {
    await api(app).post('/public/generate-theme', {}).expect(422);
    await api(app).post('/public/generate-theme', { url: 5 }).expect(400);
    await api(app)
      .post('/public/generate-theme', { url: `${base}/`, reuse: 'yes' })
      .expect(400);
    const bad = await api(app).post('/public/generate-theme', { url: 'ftp://x.test' }).expect(422);
    expect(bad.body.violations[0].message).toBe('This value is not a valid URL.');
    // Callers with a token are welcome too.
    const t = await createTenant(app);
    await api(app, { token: t.token })
      .post('/public/generate-theme', { url: `${base}/` })
      .expect(201);
  });
});
