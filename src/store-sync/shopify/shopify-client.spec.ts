import {
  SHOPIFY_STANDARD_BUCKET,
  startShopifyFake,
  type ShopifyFake,
  type ShopifyFakeOptions,
} from '../../../test/fakes/shopify-fake';
import { readAllChanged } from '../../../test/fakes/store-client-harness';
import { virtualClock, type VirtualClock } from '../../../test/fakes/virtual-clock';
import { startReceiver } from '../../../test/fakes/webhook-receiver';
import {
  StoreAddressRefused,
  StoreCredentialsRejected,
  StoreRateLimited,
  StoreUnavailable,
} from '../store-errors';
import type { ShopifyConnection } from '../store-platform';
import type { StoreHttpDeps } from '../transport/store-http';
import { StoreTokenCache } from '../transport/store-token-cache';
import { shopifyPlatform, SHOPIFY_API_VERSION } from './index';
import type { ShopifyClient } from './shopify-client';

const START = new Date('2024-05-01T00:00:00Z');

describe('Shopify client against the Shopify fake', () => {
  let fake: ShopifyFake;
  let clock: VirtualClock;
  let clients: ShopifyClient[];

  const start = async (options: ShopifyFakeOptions = {}) => {
    clock = virtualClock();
    fake = await startShopifyFake({ now: clock.now, ...options });
  };
  const connection = (fields: Partial<ShopifyConnection> = {}): ShopifyConnection => ({
    platform: 'shopify',
    shopDomain: fake.shopDomain,
    baseUrl: fake.baseUrl,
    auth: { accessToken: fake.accessToken },
    webhookSecret: fake.clientSecret,
    ...fields,
  });
  const deps = (fields: Partial<StoreHttpDeps> = {}): StoreHttpDeps => ({
    allowedHosts: ['127.0.0.1'],
    timeoutMs: 5000,
    clock,
    tokens: new StoreTokenCache(60 * 60_000),
    ...fields,
  });
  const connect = (conn = connection(), d = deps()) => {
    const client = shopifyPlatform.connect(conn, d) as ShopifyClient;
    clients.push(client);
    return client;
  };

  beforeEach(() => {
    clients = [];
  });
  afterEach(async () => {
    clients.forEach((c) => c.close());
    await fake?.close();
  });

  it('pages through 260 changed orders with their lines and fulfillments', async () => {
    await start({ orders: { count: 260, seed: 7 }, bucket: null });
    const client = connect();
    const { orders, pages } = await readAllChanged(client, START);
    expect(orders).toHaveLength(260);
    expect(new Set(orders.map((o) => o.id)).size).toBe(260);
    expect(pages).toBeGreaterThan(2);
    expect([...fake.versionsUsed]).toEqual([SHOPIFY_API_VERSION]);
    const seeded = fake.orders[17];
    const order = orders.find((o) => o.id === String(seeded.id))!;
    expect(order).toEqual(
      expect.objectContaining({
        platform: 'shopify',
        number: seeded.name,
        email: seeded.email,
        currency: seeded.currencyCode,
        subtotal: seeded.subtotal,
        total: seeded.total,
        updatedAt: new Date(seeded.updatedAt),
      }),
    );
    expect(order.lines.map((l) => [l.id, l.sku, l.quantity, l.price])).toEqual(
      seeded.lineItems.map((l) => [String(l.id), l.sku, l.quantity, l.price]),
    );
    expect(order.shipments.map((s) => [s.id, s.trackingNumbers, s.lines])).toEqual(
      seeded.fulfillments.map((f) => [
        String(f.id),
        f.trackingInfo.map((t) => t.number),
        f.lines.map((l) => ({ lineId: String(l.lineItemId), quantity: l.quantity })),
      ]),
    );
    expect(order.shippingAddress).toEqual(
      expect.objectContaining({
        city: seeded.shippingAddress!.city,
        countryIso2: seeded.shippingAddress!.countryCodeV2,
      }),
    );
  });

  it('sizes pages from the query cost to fill the single-query limit', async () => {
    await start({ orders: { count: 120, seed: 3 } });
    const client = connect();
    await readAllChanged(client, START);
    const pages = fake.costs.filter((c) => c.root === 'orders');
    expect(fake.costs.every((c) => c.root === 'orders')).toBe(true);
    expect(pages[0].requested).toBeLessThan(1000);
    // After the first page, every page asks for close to what one query may cost.
    for (const page of pages.slice(1, -1)) {
      expect(page.requested).toBeLessThanOrEqual(1000);
      expect(page.requested).toBeGreaterThan(850);
    }
    expect(fake.costs.some((c) => c.throttled)).toBe(false);
  });

  it('asks for fewer orders when a page costs more than one query may', async () => {
    await start({ orders: { count: 30, seed: 3 }, bucket: null, singleQueryLimit: 500 });
    const { orders } = await readAllChanged(connect(), START);
    expect(orders).toHaveLength(30);
    expect(fake.costs[0]).toEqual(expect.objectContaining({ root: 'orders', actual: null }));
    expect(fake.costs.slice(1).every((c) => c.requested <= 500 && c.actual !== null)).toBe(true);
  });

  it('waits for the Standard bucket instead of being throttled, at its restore rate', async () => {
    await start({ orders: { count: 300, seed: 5 }, bucket: SHOPIFY_STANDARD_BUCKET });
    const client = connect();
    const began = clock.now();
    const { orders } = await readAllChanged(client, START);
    expect(orders).toHaveLength(300);
    const actual = fake.costs.reduce((sum, c) => sum + (c.actual ?? 0), 0);
    // The least time the bucket allows: all it restores beyond its first 1 000 points.
    const minimum =
      ((actual - SHOPIFY_STANDARD_BUCKET.maximumAvailable) / SHOPIFY_STANDARD_BUCKET.restoreRate) *
      1000;
    const spent = clock.now() - began;
    expect(spent).toBeGreaterThanOrEqual(minimum * 0.99);
    expect(minimum / spent).toBeGreaterThanOrEqual(0.8);
    expect(fake.costs.filter((c) => c.throttled).length).toBeLessThanOrEqual(1);
  });

  it('retries a THROTTLED answer after the wait the bucket needs', async () => {
    await start({ orders: { count: 3, seed: 1 } });
    const client = connect();
    fake.drainBucket();
    const order = await client.readOrder(String(fake.orders[0].id));
    expect(order?.id).toBe(String(fake.orders[0].id));
    const [throttled, passed] = fake.costs;
    expect(throttled.throttled).toBe(true);
    expect(passed.throttled).toBe(false);
    // It waited what the restore rate needs for the requested cost, in one go.
    expect(clock.slept).toEqual([Math.ceil((throttled.requested / 100) * 1000)]);
  });

  it('honours 429 with Retry-After', async () => {
    await start({ orders: { count: 1 } });
    const client = connect();
    fake.rateLimitNext(3);
    expect(await client.readOrder(String(fake.orders[0].id))).not.toBeNull();
    expect(clock.slept).toContain(3000);
  });

  it('gives up on a rate limit longer than the session waits', async () => {
    await start({ orders: { count: 1 } });
    const client = connect(connection(), deps({ maxWaitMs: 1000 }));
    fake.rateLimitNext(30);
    await expect(client.readOrder(String(fake.orders[0].id))).rejects.toBeInstanceOf(
      StoreRateLimited,
    );
  });

  it('reports a refused token as rejected credentials', async () => {
    await start({ orders: { count: 1 } });
    const client = connect(connection({ auth: { accessToken: 'shpat_wrong' } }));
    const error = await client.readOrder('1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreCredentialsRejected);
    expect((error as StoreCredentialsRejected).message).toBe(
      'Shopify refused the credentials (HTTP 401)',
    );
  });

  it('exchanges client credentials once, and again when the shop refuses the token', async () => {
    await start({ orders: { count: 2 } });
    const tokens = new StoreTokenCache(60 * 60_000);
    const conn = connection({
      auth: { clientId: fake.clientId, clientSecret: fake.clientSecret },
      webhookSecret: null,
    });
    const client = connect(conn, deps({ tokens }));
    await client.readOrder(String(fake.orders[0].id));
    await client.readOrder(String(fake.orders[1].id));
    expect(fake.server.calls('POST', '/admin/oauth/access_token')).toHaveLength(1);
    // A second session of the same shop reuses the token.
    await connect(conn, deps({ tokens })).readOrder(String(fake.orders[0].id));
    expect(fake.server.calls('POST', '/admin/oauth/access_token')).toHaveLength(1);
    fake.revokeTokens();
    expect(await client.readOrder(String(fake.orders[0].id))).not.toBeNull();
    expect(fake.server.calls('POST', '/admin/oauth/access_token')).toHaveLength(2);
  });

  it('renews an exchanged token before it expires', async () => {
    await start({ orders: { count: 1 }, tokenLifetimeSeconds: 2 * 3600 });
    const conn = connection({ auth: { clientId: fake.clientId, clientSecret: fake.clientSecret } });
    const client = connect(conn);
    await client.readOrder(String(fake.orders[0].id));
    clock.advance(30 * 60_000);
    await client.readOrder(String(fake.orders[0].id));
    expect(fake.server.calls('POST', '/admin/oauth/access_token')).toHaveLength(1);
    // Less than the renewal margin (1 h) left: a new token before the old one lapses.
    clock.advance(40 * 60_000);
    await client.readOrder(String(fake.orders[0].id));
    expect(fake.server.calls('POST', '/admin/oauth/access_token')).toHaveLength(2);
  });

  it('reports a wrong client secret as rejected credentials', async () => {
    await start({ orders: { count: 1 } });
    const client = connect(
      connection({ auth: { clientId: fake.clientId, clientSecret: 'wrong' } }),
    );
    await expect(client.readOrder('1')).rejects.toBeInstanceOf(StoreCredentialsRejected);
  });

  it('reports a store that is down as unavailable, with a short reason', async () => {
    await start({ orders: { count: 1 } });
    const client = connect();
    await fake.down('http503');
    const error = await client.readOrder('1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect((error as Error).message).toBe('Shopify store unavailable: HTTP 503');
    // Reads are tried three times in all.
    expect(fake.server.requests).toHaveLength(3);
    await fake.down('reset');
    await expect(client.readOrder('1')).rejects.toThrow(
      'Shopify store unavailable: it could not be reached',
    );
  });

  it('reports a refused connection as unavailable, and works again once the shop is back', async () => {
    await start({ orders: { count: 1 } });
    const client = connect();
    await fake.down('refused');
    await expect(client.readOrder(String(fake.orders[0].id))).rejects.toThrow(
      'Shopify store unavailable: it could not be reached',
    );
    await fake.down(false);
    expect(await client.readOrder(String(fake.orders[0].id))).not.toBeNull();
  });

  it('refuses loopback and plain http unless the operator allow-listed the host', async () => {
    await start({ orders: { count: 1 } });
    const plain = connect(connection(), deps({ allowedHosts: [] }));
    await expect(plain.readOrder('1')).rejects.toThrow(
      'Shopify store address refused: only https addresses can be called',
    );
    const secure = connect(
      connection({ baseUrl: fake.baseUrl.replace('http:', 'https:') }),
      deps({ allowedHosts: [] }),
    );
    await expect(secure.readOrder('1')).rejects.toBeInstanceOf(StoreAddressRefused);
    await expect(secure.readOrder('1')).rejects.toThrow('not a public internet address');
    expect(fake.server.requests).toHaveLength(0);
  });

  it('reads one order by id, null when the shop has none', async () => {
    await start({ orders: { count: 2 } });
    const client = connect();
    expect((await client.readOrder(String(fake.orders[1].id)))?.number).toBe(fake.orders[1].name);
    expect(await client.readOrder('999')).toBeNull();
  });

  it('sees changes since a time, and a changed tracking number', async () => {
    await start({ orders: { count: 30, seed: 2 }, bucket: null });
    const client = connect();
    const first = await readAllChanged(client, START);
    const cursor = new Date(Math.max(...first.orders.map((o) => o.updatedAt.getTime())));
    clock.advance(3600_000);
    const target = fake.orders[4];
    fake.setTrackingNumber(target.fulfillments[0].id, 'TM102NEWNUMBERTM');
    const { orders } = await readAllChanged(client, new Date(cursor.getTime() + 1000));
    expect(orders.map((o) => o.id)).toEqual([String(target.id)]);
    expect(orders[0].shipments[0].trackingNumbers).toEqual(['TM102NEWNUMBERTM']);
  });

  it('reads what a big order has beyond the first page of its lists', async () => {
    await start({ orders: { count: 1 } });
    const order = fake.orders[0];
    fake.changeOrder(order.id, (o) => {
      o.lineItems = Array.from({ length: 130 }, (_, i) => ({
        ...o.lineItems[0],
        id: o.id * 1000 + i,
        sku: `SKU-${i}`,
        quantity: 1,
      }));
      o.fulfillments = Array.from({ length: 5 }, (_, f) => ({
        ...o.fulfillments[0],
        id: o.id * 100 + f,
        trackingInfo: Array.from({ length: f === 4 ? 3 : 1 }, (_, t) => ({
          company: 'UPS',
          number: `TM102${f}${t}00000TM`,
          url: null,
        })),
        lines: Array.from({ length: f === 4 ? 110 : 1 }, (_, l) => ({
          id: o.id * 10_000 + f * 1000 + l,
          lineItemId: o.id * 1000 + (f === 4 ? l + 20 : f),
          quantity: 1,
        })),
        events: [],
      }));
    });
    const client = connect();
    const read = (await client.readOrder(String(order.id)))!;
    expect(read.lines).toHaveLength(130);
    expect(read.shipments).toHaveLength(5);
    expect(read.shipments[4].trackingNumbers).toHaveLength(3);
    expect(read.shipments[4].lines).toHaveLength(110);
    expect(read.shipments[0].lines).toEqual([{ lineId: String(order.id * 1000), quantity: 1 }]);
  });

  it('subscribes the order topics once', async () => {
    await start();
    const client = connect();
    const url = 'https://api.example/public/store_webhooks/shopify/wf-1';
    const created = await client.subscribeWebhooks(url);
    expect(created.map((s) => s.topic)).toEqual([
      'ORDERS_CREATE',
      'ORDERS_UPDATED',
      'FULFILLMENTS_CREATE',
      'FULFILLMENTS_UPDATE',
    ]);
    await client.subscribeWebhooks(url);
    expect(fake.subscriptions.map((s) => [s.topic, s.uri])).toEqual(
      created.map((s) => [s.topic, url]),
    );
    expect(fake.mutations.filter((m) => m.name === 'webhookSubscriptionCreate')).toHaveLength(4);
  });

  it('sends a fulfillment event once, even when the push is retried', async () => {
    await start({ orders: { count: 1 } });
    const client = connect();
    const fulfillment = fake.orders[0].fulfillments[0];
    const action = {
      kind: 'shopify.fulfillmentEvent' as const,
      fulfillmentId: String(fulfillment.id),
      status: 'IN_TRANSIT',
      happenedAt: '2024-05-02T10:00:00.000Z',
      estimatedDeliveryAt: '2024-05-04T00:00:00.000Z',
      message: 'Departed facility',
      city: 'Louisville',
      province: 'KY',
      country: 'US',
      zip: null,
    };
    expect(await client.push(action)).toEqual({ sent: true });
    expect(await client.push(action)).toEqual({ sent: false });
    const sent = fake.mutations.filter((m) => m.name === 'fulfillmentEventCreate');
    expect(sent).toHaveLength(1);
    expect(sent[0].args.fulfillmentEvent).toEqual({
      fulfillmentId: `gid://shopify/Fulfillment/${fulfillment.id}`,
      status: 'IN_TRANSIT',
      happenedAt: '2024-05-02T10:00:00.000Z',
      estimatedDeliveryAt: '2024-05-04T00:00:00.000Z',
      message: 'Departed facility',
      city: 'Louisville',
      province: 'KY',
      country: 'US',
    });
    expect(fulfillment.events.map((e) => e.status)).toEqual(['IN_TRANSIT']);
    await expect(client.push({ ...action, fulfillmentId: '42' })).rejects.toThrow(
      'fulfillment 42 not found',
    );
  });
});

describe('Shopify webhook deliveries', () => {
  let fake: ShopifyFake;
  beforeAll(async () => {
    fake = await startShopifyFake({ orders: { count: 1 } });
  });
  afterAll(() => fake.close());

  const connection = (): ShopifyConnection => ({
    platform: 'shopify',
    shopDomain: fake.shopDomain,
    baseUrl: fake.baseUrl,
    auth: { accessToken: fake.accessToken },
    webhookSecret: fake.clientSecret,
  });
  const delivery = (webhook: { headers: Record<string, string>; body: string }) => ({
    headers: Object.fromEntries(
      Object.entries(webhook.headers).map(([k, v]) => [k.toLowerCase(), v]),
    ),
    rawBody: Buffer.from(webhook.body),
  });

  it('accepts a signed order or fulfillment delivery and names the order', () => {
    const orderId = fake.orders[0].id;
    const updated = fake.signedWebhook('orders/updated', orderId, { webhookId: 'w-1' });
    expect(shopifyPlatform.verifyWebhook(connection(), delivery(updated))).toEqual({
      kind: 'order',
      orderId: String(orderId),
      topic: 'orders/updated',
      dedupKey: 'shopify:w-1',
    });
    const fulfilled = fake.signedWebhook('fulfillments/create', orderId);
    expect(shopifyPlatform.verifyWebhook(connection(), delivery(fulfilled))).toEqual(
      expect.objectContaining({ kind: 'order', orderId: String(orderId) }),
    );
  });

  it('rejects a wrong signature, a changed body and another shop', () => {
    const orderId = fake.orders[0].id;
    const forged = fake.signedWebhook('orders/updated', orderId, { secret: 'not-the-secret' });
    expect(shopifyPlatform.verifyWebhook(connection(), delivery(forged)).kind).toBe('rejected');
    const signed = fake.signedWebhook('orders/updated', orderId);
    const tampered = { ...signed, body: signed.body.replace('"id"', '"id" ') };
    expect(shopifyPlatform.verifyWebhook(connection(), delivery(tampered)).kind).toBe('rejected');
    const other = { ...connection(), shopDomain: 'other-shop.myshopify.com' };
    expect(shopifyPlatform.verifyWebhook(other, delivery(signed))).toEqual({
      kind: 'rejected',
      reason: 'a delivery for another shop',
    });
    expect(
      shopifyPlatform.verifyWebhook({ ...connection(), webhookSecret: null }, delivery(signed))
        .kind,
    ).toBe('rejected');
  });

  it('delivers a change to every subscription of its topic, and it checks out', async () => {
    const receiver = await startReceiver('/public/store_webhooks/shopify/wf-1');
    const client = shopifyPlatform.connect(connection(), {
      allowedHosts: ['127.0.0.1'],
      timeoutMs: 5000,
    });
    try {
      await client.subscribeWebhooks(receiver.url);
      expect(await fake.notifySubscribers('fulfillments/update', fake.orders[0].id)).toEqual([200]);
      expect(receiver.received.map((d) => shopifyPlatform.verifyWebhook(connection(), d))).toEqual([
        expect.objectContaining({
          kind: 'order',
          orderId: String(fake.orders[0].id),
          topic: 'fulfillments/update',
        }),
      ]);
    } finally {
      client.close();
      await receiver.close();
    }
  });

  it('recognises the privacy topics and ignores others', () => {
    const orderId = fake.orders[0].id;
    expect(
      shopifyPlatform.verifyWebhook(
        connection(),
        delivery(fake.signedWebhook('customers/redact', orderId, { webhookId: 'p' })),
      ),
    ).toEqual({
      kind: 'privacy',
      topic: 'customers/redact',
      dedupKey: 'shopify:p',
    });
    expect(
      shopifyPlatform.verifyWebhook(
        connection(),
        delivery(fake.signedWebhook('orders/delete', orderId)),
      ).kind,
    ).toBe('ignored');
  });
});
