import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  createServer,
  get,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createOrderItem, createShipmentItem } from '../factories/commerce.factory';
import { PNG } from '../factories/media.factory';
import { createTrackingSite, type TrackingSite } from '../factories/tracking-site.factory';
import { closeTestApp, createTestApp, testAppUrl } from '../support/app';
import { until } from '../support/until';

/**
 * Issue 22 finding 8: the tracking page's image proxy (`/public/images/<signature>?url=`) signs
 * any URL a tenant puts in an order item, so it must not be an open fetcher: upstream fetches
 * are bounded at once (globally and per workspace, 503 + Retry-After beyond), images are
 * streamed rather than held whole in memory, and errors never describe the other host. A local
 * server plays the shops' CDNs, counting the connections it holds at once.
 */
describe('security: image proxy bounds', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let cdn: Server;
  let base: string;
  const sockets = new Set<Socket>();
  const saved = { ...process.env };
  /** Requests being answered now, and the most ever, per first path segment. */
  const active = new Map<string, number>();
  const peak = new Map<string, number>();
  let activeAll = 0;
  let peakAll = 0;
  /** Requests received, by path. */
  const hits = new Map<string, number>();
  /** Answers held until the test lets them go. */
  const held: Array<() => void> = [];
  let streamRelease: (() => void) | null = null;

  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://cdn').pathname;
    const group = path.split('/')[1];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    activeAll++;
    peakAll = Math.max(peakAll, activeAll);
    active.set(group, (active.get(group) ?? 0) + 1);
    peak.set(group, Math.max(peak.get(group) ?? 0, active.get(group)!));
    res.on('close', () => {
      activeAll--;
      active.set(group, active.get(group)! - 1);
    });
    const png = () => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(PNG);
    };
    if (group.startsWith('slow')) return void setTimeout(png, 100);
    if (group === 'hold') return void held.push(png);
    if (path === '/err/500') {
      res.writeHead(500, { 'Content-Type': 'text/plain', Server: 'internal-cdn/1.2' });
      return void res.end(`upstream secret at ${req.headers.host}`);
    }
    if (path === '/err/text.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      return void res.end('upstream secret: not an image');
    }
    if (path === '/err/declared-huge.png') {
      res.writeHead(200, {
        'Content-Type': 'image/png',
        'Content-Length': String(6 * 1024 * 1024),
      });
      return void res.end(PNG);
    }
    if (path === '/stream/big.png') {
      // A PNG start and a megabyte, then nothing until the test has seen it arrive.
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.write(Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]));
      streamRelease = () => res.end(Buffer.alloc(512 * 1024));
      return;
    }
    res.writeHead(404);
    res.end();
  };

  beforeAll(async () => {
    cdn = createServer(answer);
    cdn.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
    Object.assign(process.env, {
      IMAGE_PROXY_ALLOWED_HOSTS: '127.0.0.1',
      OUTBOUND_HTTP_TIMEOUT_MS: '5000',
      IMAGE_PROXY_MAX_FETCHES: '4',
      IMAGE_PROXY_MAX_FETCHES_PER_WORKSPACE: '3',
      IMAGE_PROXY_QUEUE_WAIT_MS: '1500',
    });
    app = await createTestApp({ listen: true });
    db = app.get(DataSource);
  });
  afterAll(async () => {
    process.env = saved;
    for (const release of held.splice(0)) release();
    streamRelease?.();
    await closeTestApp(app);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => cdn.close(resolve));
  });

  /** A tracking page whose parcel carries one item per image URL; the page's <img> paths. */
  async function pageShowing(urls: string[]): Promise<string[]> {
    const site: TrackingSite = await createTrackingSite(app);
    const parcel = site.parcels['200'];
    const [{ order_id: orderId }] = await db.query(
      `SELECT oi.order_id FROM shipment_item si JOIN order_item oi ON oi.id = si.order_item_id
        WHERE si.shipment_id = $1 LIMIT 1`,
      [parcel.id],
    );
    for (const [i, imageUrl] of urls.entries()) {
      const item = await createOrderItem(app, site.tenant, `/orders/${orderId}`, {
        productName: `Item ${i}`,
        imageUrl,
      });
      await createShipmentItem(app, site.tenant, {
        shipment: `/shipments/${parcel.id}`,
        orderItem: item['@id'],
        qty: 1,
      });
    }
    const page = await request(app.getHttpServer()).get(`/t/${parcel.hash}`).expect(200);
    const paths = [...page.text.matchAll(/<img src="(\/public\/images\/[^"]+)"/g)].map((m) =>
      m[1].replace(/&amp;/g, '&'),
    );
    const byUrl = new Map(
      paths.map((p) => [new URL(p, 'http://app').searchParams.get('url'), p] as const),
    );
    return urls.map((u) => {
      const path = byUrl.get(u);
      if (!path) throw new Error(`the page shows no proxied image for ${u}`);
      return path;
    });
  }

  /** GET of a proxied image, sent at once (supertest sends only when awaited). */
  const fetchImage = (path: string) =>
    request(app.getHttpServer())
      .get(path)
      .buffer(true)
      .then((res) => res);

  it('never holds more upstream fetches at once than its bounds, globally and per workspace', async () => {
    const a = await pageShowing(Array.from({ length: 5 }, (_, i) => `${base}/slowa/${i}.png`));
    const b = await pageShowing(Array.from({ length: 5 }, (_, i) => `${base}/slowb/${i}.png`));
    // Both workspaces' images at once (as two pages opened together over HTTP/2).
    const answers = await Promise.all([...a, ...b].map(fetchImage));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    for (const res of answers) expect(Buffer.compare(res.body as Buffer, PNG)).toBe(0);
    expect(peakAll).toBeLessThanOrEqual(4);
    expect(peak.get('slowa')).toBeLessThanOrEqual(3);
    expect(peak.get('slowb')).toBeLessThanOrEqual(3);
  });

  it('lets concurrent requests for one image share its fetch, then answers from the cache', async () => {
    const [path] = await pageShowing([`${base}/slowc/same.png`]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetchImage(path)));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    for (const res of answers) expect(Buffer.compare(res.body as Buffer, PNG)).toBe(0);
    expect((await fetchImage(path)).status).toBe(200);
    expect(hits.get('/slowc/same.png')).toBe(1);
  });

  it('keeps one workspace to its own bound, and answers 503 with Retry-After beyond it', async () => {
    const paths = await pageShowing(Array.from({ length: 4 }, (_, i) => `${base}/hold/${i}.png`));
    const first = paths.slice(0, 3).map(fetchImage);
    await until(() => held.length === 3, 5000);
    // The fourth waits for a slot of its workspace, then gives up.
    const fourth = await fetchImage(paths[3]);
    expect(fourth.status).toBe(503);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    expect(peak.get('hold')).toBe(3);
    for (const release of held.splice(0)) release();
    expect((await Promise.all(first)).map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('streams a large image: the first megabyte reaches the browser before the rest exists', async () => {
    const [path] = await pageShowing([`${base}/stream/big.png`]);
    let received = 0;
    const done = new Promise<{ status: number; bytes: number }>((resolve, reject) => {
      get(`${testAppUrl(app)}${path}`, (res) => {
        res.on('data', (chunk: Buffer) => (received += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: received }));
        res.on('error', reject);
      }).on('error', reject);
    });
    await until(() => received >= 1024 * 1024, 5000);
    streamRelease!();
    expect(await done).toEqual({ status: 200, bytes: PNG.length + 1536 * 1024 });
  });

  it('answers every upstream failure with the same words, nothing of the other host', async () => {
    const urls = [
      `${base}/err/500`,
      `${base}/err/text.png`,
      `${base}/err/declared-huge.png`,
      `${base}/err/missing.png`,
      'http://10.0.0.1/a.png',
      'http://127.0.0.1:9/closed.png',
    ];
    const paths = await pageShowing(urls);
    for (const [i, path] of paths.entries()) {
      const res = await fetchImage(path);
      const text = JSON.stringify(res.body);
      expect({ url: urls[i], status: res.status }).toEqual({ url: urls[i], status: 502 });
      expect(res.body['hydra:description']).toBe('Image unavailable.');
      for (const word of ['secret', '127.0.0.1', '10.0.0.1', 'HTTP', 'public', 'larger', 'PNG'])
        expect(text).not.toContain(word);
    }
  });
});
