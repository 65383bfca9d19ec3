import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { RemoteImages } from '../src/tracking-pages/page/remote-images';
import { PNG } from './factories/media.factory';
import { createTrackingSite, type TrackingSite } from './factories/tracking-site.factory';
import { closeTestApp, createTestApp } from './support/app';

/** A 16x16 baseline JPEG (CPython's test data, Lib/test/imghdrdata/python.jpg). */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/2wBDAQMDAwQDBAgEBAgQCwkLEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBD/wAARCAAQABADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABwQF/8QAJBAAAQQBBAICAwAAAAAAAAAAAQIDBAYFBwgSExEiABQJMTL/xAAVAQEBAAAAAAAAAAAAAAAAAAAABv/EACMRAAECBQMFAAAAAAAAAAAAAAECEQMEBQYhABIxFRZhgeH/2gAMAwEAAhEDEQA/ABSm0mobc8HmExLUlRzzEWPkJWW+ulrsaUVAseUgslSlH9LKuPryIKuWPZdskzXmm3fX5m2nF4GlVxx/HOpx4ks51+MiU/Iaad7UcUo4tILoS4kqcWkezS0hO/HvuRp0rO6hWnWO1UisZVuFi4GFeyEpmGepa5S5SWVPuciFKRFLgSrwetnyPIB+Vb4N9mKhQMzo5po9XLdDs9d6ZVix2VEhiL9kuNPxw2gEKcDQ/rs8AuA8VAe0vdl7VOYn+27flGAUgmITjbhSmCg3BYlyeWDkMolvw4KOp1KM6iCNvngZHwetf//Z',
  'base64',
);

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

/**
 * The image proxy of tracking pages against a local server playing a shop's CDN (on
 * 127.0.0.1, which IMAGE_PROXY_ALLOWED_HOSTS lets the proxy reach; other private addresses
 * stay refused).
 */
describe('the tracking page image proxy (HTTP)', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let cdn: Server;
  let base: string;
  let site: TrackingSite;
  const sockets = new Set<Socket>();
  /** Requests the CDN received, by path. */
  const hits: Record<string, number> = {};
  const seen: Array<Record<string, string | string[] | undefined>> = [];
  const http = () => request(app.getHttpServer());

  const send = (res: ServerResponse, type: string, body: Buffer | string) => {
    res.writeHead(200, { 'Content-Type': type });
    res.end(body);
  };

  beforeAll(async () => {
    cdn = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://cdn').pathname;
      hits[path] = (hits[path] ?? 0) + 1;
      seen.push(req.headers);
      switch (path) {
        case '/p/jacket.png':
        case '/p/cached.png':
        case '/p/forged.png':
          return send(res, 'image/png', PNG);
        case '/p/boots.jpg':
          // A wrong declared type: the bytes decide.
          return send(res, 'application/octet-stream', JPEG);
        case '/p/text.png':
          return send(res, 'image/png', 'not an image at all');
        case '/p/logo.svg':
          return send(res, 'image/svg+xml', SVG);
        case '/p/huge.png': {
          // A real PNG start, then more than 5 MB without a Content-Length.
          res.writeHead(200, { 'Content-Type': 'image/png' });
          res.write(PNG);
          const chunk = Buffer.alloc(256 * 1024);
          let sent = 0;
          const more = () => {
            while (sent < 8 * 1024 * 1024 && !res.destroyed) {
              sent += chunk.length;
              if (!res.write(chunk)) return void res.once('drain', more);
            }
            res.end();
          };
          return more();
        }
        case '/p/slow.png':
          // Headers and a few bytes, then nothing: the total deadline must end it.
          res.writeHead(200, { 'Content-Type': 'image/png' });
          return void res.write(PNG.subarray(0, 8));
        case '/p/private.png':
          res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' });
          return res.end();
        case '/p/moved.png':
          res.writeHead(301, { Location: '/p/jacket.png' });
          return res.end();
        default:
          res.writeHead(404, { 'Content-Type': 'text/plain' });
          return res.end('no such image');
      }
    });
    cdn.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
    process.env.IMAGE_PROXY_ALLOWED_HOSTS = '127.0.0.1';
    process.env.OUTBOUND_HTTP_TIMEOUT_MS = '1500';
    app = await createTestApp();
    db = app.get(DataSource);
    site = await createTrackingSite(app, {
      prefixes: ['200'],
      builder: { logo: { imageUrl: `${base}/p/logo-remote.png` } },
    });
    await db.query(
      `UPDATE order_item SET image_url = $1
        WHERE id IN (SELECT order_item_id FROM shipment_item WHERE shipment_id = $2)`,
      [`${base}/p/jacket.png`, site.parcels['200'].id],
    );
  });

  afterAll(async () => {
    delete process.env.IMAGE_PROXY_ALLOWED_HOSTS;
    delete process.env.OUTBOUND_HTTP_TIMEOUT_MS;
    await closeTestApp(app);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => cdn.close(resolve));
  });

  /** The signed proxy path of a remote URL, as the site's page would render it. */
  const proxied = (url: string) => app.get(RemoteImages).pathFor(site.tenant.workspaceId, url)!;

  it('renders remote item images and logos as signed proxy URLs, never the CDN itself', async () => {
    const res = await http().get(`/t/${site.parcels['200'].hash}`).expect(200);
    const sources = [...res.text.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
    const item = proxied(`${base}/p/jacket.png`).replace(/&/g, '&amp;');
    const logo = proxied(`${base}/p/logo-remote.png`).replace(/&/g, '&amp;');
    expect(sources).toEqual(expect.arrayContaining([item, logo]));
    expect(sources.every((s) => s.startsWith('/'))).toBe(true);
    expect(res.text).not.toContain(`src="${base}`);
    // The placeholder letter stays behind the image (shown when it fails, without onerror).
    expect(res.text).toMatch(
      /<span class="ph"><span aria-hidden="true">T<\/span><img src="\/public\/images\//,
    );
    expect(res.headers['content-security-policy']).toContain("img-src 'self'");
  });

  it('answers the image bytes with their sniffed type and cache headers, then from its cache', async () => {
    const path = proxied(`${base}/p/cached.png`);
    const first = await http().get(path).buffer(true).expect(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers['cache-control']).toBe('public, max-age=86400');
    expect(first.headers['set-cookie']).toBeUndefined();
    expect(Buffer.compare(first.body as Buffer, PNG)).toBe(0);
    const second = await http().get(path).buffer(true).expect(200);
    expect(Buffer.compare(second.body as Buffer, PNG)).toBe(0);
    expect(hits['/p/cached.png']).toBe(1);

    const jpeg = await http()
      .get(proxied(`${base}/p/boots.jpg`))
      .buffer(true)
      .expect(200);
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(jpeg.body as Buffer, JPEG)).toBe(0);
  });

  it('sends nothing of the visitor upstream', async () => {
    seen.length = 0;
    await http()
      .get(proxied(`${base}/p/jacket.png?fresh=1`))
      .set('Cookie', 'session=secret')
      .set('Referer', 'https://app.example/t/abc')
      .set('Accept-Language', 'de')
      .set('User-Agent', 'Customer Browser')
      .expect(200);
    expect(seen).toHaveLength(1);
    expect(seen[0].cookie).toBeUndefined();
    expect(seen[0].referer).toBeUndefined();
    expect(seen[0]['accept-language']).toBeUndefined();
    expect(seen[0]['x-forwarded-for']).toBeUndefined();
    expect(seen[0]['user-agent']).toBe('ShipmentTracking-ImageProxy/1.0');
  });

  it('is not an open proxy: a forged, missing or foreign signature is a 404, nothing fetched', async () => {
    const url = `${base}/p/forged.png`;
    const signature = proxied(url).split('/')[3].split('?')[0];
    const forged = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    const q = `url=${encodeURIComponent(url)}`;
    await http().get(`/public/images/${forged}?${q}`).expect(404);
    await http().get(`/public/images/x?${q}`).expect(404);
    await http().get(`/public/images/${signature}`).expect(404);
    // The signature of another URL.
    const other = proxied(`${base}/p/jacket.png`).split('/')[3].split('?')[0];
    await http().get(`/public/images/${other}?${q}`).expect(404);
    await http()
      .get(`/public/images/${signature}?${q}&url=${encodeURIComponent(url)}`)
      .expect(404);
    expect(hits['/p/forged.png']).toBeUndefined();
  });

  it('follows a redirect to an image, refuses one to a private address', async () => {
    const moved = await http()
      .get(proxied(`${base}/p/moved.png`))
      .expect(200);
    expect(moved.headers['content-type']).toBe('image/png');
    const res = await http()
      .get(proxied(`${base}/p/private.png`))
      .expect(502);
    expect(res.body['hydra:description']).toBe('Image unavailable.');
    // A private address signed directly is refused the same way, before any connection.
    await http().get(proxied('http://10.0.0.1/a.png')).expect(502);
  });

  it('answers 502 "Image unavailable." for what is not a raster image, too slow or missing', async () => {
    // The same words whatever the other host did (issue 22: nothing of it is described).
    for (const path of ['/p/text.png', '/p/logo.svg', '/p/slow.png', '/p/gone.png']) {
      const res = await http().get(proxied(`${base}${path}`));
      expect({ path, status: res.status }).toEqual({ path, status: 502 });
      expect(res.body['hydra:description']).toBe('Image unavailable.');
      expect(res.headers['content-type']).not.toMatch(/^image\//);
    }
    // A failure is answered again for a while without asking the shop's server.
    const before = hits['/p/gone.png'];
    const again = await http().get(proxied(`${base}/p/gone.png`));
    expect(again.status).toBe(502);
    expect(hits['/p/gone.png']).toBe(before);
  });

  it('cuts off an image that grows beyond 5 MB, and refuses it next time at once', async () => {
    // Streamed as it arrives: past the cap the answer is cut short, never a whole image.
    const cut = await new Promise<{ complete: boolean; bytes: number }>((resolve) => {
      http()
        .get(proxied(`${base}/p/huge.png`))
        .parse((res, done) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('close', () => {
            resolve({ complete: (res as unknown as IncomingMessage).complete, bytes });
            done(null, null);
          });
        })
        .then(
          () => undefined,
          () => undefined,
        );
    });
    expect(cut.complete).toBe(false);
    expect(cut.bytes).toBeLessThanOrEqual(5 * 1024 * 1024);
    const again = await http().get(proxied(`${base}/p/huge.png`));
    expect(again.status).toBe(502);
    expect(again.body['hydra:description']).toBe('Image unavailable.');
  });
});
