import {
  startBigCommerceFake,
  type BigCommerceFake,
  type BigCommerceFakeOptions,
} from '../../../test/fakes/bigcommerce-fake';
import { readAllChanged } from '../../../test/fakes/store-client-harness';
import { virtualClock, type VirtualClock } from '../../../test/fakes/virtual-clock';
import { startReceiver } from '../../../test/fakes/webhook-receiver';
import { StoreCredentialsRejected, StoreUnavailable } from '../store-errors';
import type { BigCommerceConnection, StoreWebhookDelivery } from '../store-platform';
import type { StoreHttpDeps } from '../transport/store-http';
import type { BigCommerceClient } from './bigcommerce-client';
import { BIGCOMMERCE_HOOK_HEADER, bigcommercePlatform } from './index';

const START = new Date('2024-05-01T00:00:00Z');

describe('BigCommerce client against the BigCommerce fake', () => {
  let fake: BigCommerceFake;
  let clock: VirtualClock;
  let clients: BigCommerceClient[];

  const start = async (options: BigCommerceFakeOptions = {}) => {
    clock = virtualClock();
    fake = await startBigCommerceFake({ now: clock.now, ...options });
  };
  const connection = (fields: Partial<BigCommerceConnection> = {}): BigCommerceConnection => ({
    platform: 'bigcommerce',
    baseUrl: fake.storeUrl,
    accessToken: fake.accessToken,
    hookSecret: 'a-hook-secret-of-ours',
    ...fields,
  });
  const deps = (fields: Partial<StoreHttpDeps> = {}): StoreHttpDeps => ({
    allowedHosts: ['127.0.0.1'],
    timeoutMs: 5000,
    clock,
    ...fields,
  });
  const connect = (conn = connection(), d = deps()) => {
    const client = bigcommercePlatform.connect(conn, d) as BigCommerceClient;
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

  it('pages through 260 orders within the rate window, waiting for its reset', async () => {
    await start({ orders: { count: 260, seed: 9 } });
    const { orders } = await readAllChanged(connect(), START);
    expect(orders).toHaveLength(260);
    expect(new Set(orders.map((o) => o.id)).size).toBe(260);
    // About 3 requests per order at 150 per 30 s: the client waited for several resets...
    expect(clock.slept.filter((ms) => ms > 0).length).toBeGreaterThanOrEqual(4);
    // ...instead of running into 429s.
    expect(fake.limited).toBe(0);
    const listings = fake.server.requests.filter((r) => r.path.endsWith('/v2/orders'));
    expect(
      listings.every(
        (r) => r.query.get('sort') === 'date_modified:asc' && r.query.get('limit') === '250',
      ),
    ).toBe(true);
  });

  it('maps an order with its products, shipments and addresses', async () => {
    await start({ orders: { count: 3, seed: 1 }, rateLimit: null });
    const seeded = fake.orders[1];
    const order = (await connect().readOrder(String(seeded.id)))!;
    expect(order).toEqual(
      expect.objectContaining({
        platform: 'bigcommerce',
        id: String(seeded.id),
        number: String(seeded.id),
        email: seeded.billing_address.email,
        currency: seeded.currency_code,
        status: { code: 'Shipped', title: 'Shipped' },
        updatedAt: new Date(seeded.date_modified),
      }),
    );
    expect(order.lines.map((l) => [l.id, l.sku, l.quantity])).toEqual(
      seeded.products.map((p) => [String(p.id), p.sku, p.quantity]),
    );
    expect(
      order.shipments.map((s) => [s.id, s.trackingNumbers, s.carrierName || null, s.lines]),
    ).toEqual(
      seeded.shipments.map((s) => [
        String(s.id),
        [s.tracking_number],
        s.tracking_carrier || null,
        s.items.map((i) => ({ lineId: String(i.order_product_id), quantity: i.quantity })),
      ]),
    );
    expect(order.shipments[0].address?.city).toBe(seeded.shippingAddresses[0].city);
    expect(await connect().readOrder('99999')).toBeNull();
  });

  it('gets through more orders changed in one second than a page holds', async () => {
    await start({ orders: { count: 300, seed: 2 }, rateLimit: null });
    for (const order of fake.orders) order.date_modified = 'Wed, 01 May 2024 10:00:00 +0000';
    const { orders } = await readAllChanged(connect(), START);
    expect(new Set(orders.map((o) => o.id))).toEqual(new Set(fake.orders.map((o) => String(o.id))));
    expect(fake.server.requests.some((r) => r.query.get('min_id') !== null)).toBe(true);
  });

  it('honours a 429 by waiting for the window reset', async () => {
    await start({ orders: { count: 1 }, rateLimit: null });
    fake.server.failNext({
      status: 429,
      headers: { 'X-Rate-Limit-Requests-Left': '0', 'X-Rate-Limit-Time-Reset-Ms': '4321' },
      body: [{ status: 429, message: 'Too many requests.' }],
    });
    expect(await connect().readOrder(String(fake.orders[0].id))).not.toBeNull();
    expect(clock.slept).toContain(4321);
  });

  it('honours a 429 that only says Retry-After', async () => {
    await start({ orders: { count: 1 }, rateLimit: null });
    fake.server.failNext({ status: 429, headers: { 'Retry-After': '3' }, body: [] });
    expect(await connect().readOrder(String(fake.orders[0].id))).not.toBeNull();
    expect(clock.slept).toContain(3000);
  });

  it('reports a wrong token as rejected credentials', async () => {
    await start({ orders: { count: 1 } });
    const error = await connect(connection({ accessToken: 'wrong' }))
      .readOrder('101')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreCredentialsRejected);
    expect((error as Error).message).toBe('BigCommerce refused the credentials (HTTP 401)');
  });

  it('reports a store that is down as unavailable', async () => {
    await start({ orders: { count: 1 } });
    fake.down('http503');
    const error = await connect()
      .readOrder('101')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect((error as Error).message).toBe('BigCommerce store unavailable: HTTP 503');
  });

  it('creates its hooks once with the secret header, and turns a disabled one back on', async () => {
    await start({ rateLimit: null });
    const client = connect();
    const url = 'https://api.example/public/store_webhooks/bigcommerce/wf-1';
    const created = await client.subscribeWebhooks(url);
    expect(created.map((h) => h.topic)).toEqual([
      'store/order/created',
      'store/order/updated',
      'store/shipment/created',
      'store/shipment/updated',
    ]);
    fake.hooks[1].is_active = false;
    await client.subscribeWebhooks(url);
    expect(fake.hooks).toHaveLength(4);
    expect(
      fake.hooks.every(
        (h) => h.is_active && h.headers[BIGCOMMERCE_HOOK_HEADER] === 'a-hook-secret-of-ours',
      ),
    ).toBe(true);
  });

  it('sets the order status on delivery once', async () => {
    await start({ orders: { count: 1 }, rateLimit: null });
    const client = connect();
    const action = {
      kind: 'bigcommerce.status' as const,
      orderId: String(fake.orders[0].id),
      statusId: 10,
    };
    expect(await client.push(action)).toEqual({ sent: true });
    expect(await client.push(action)).toEqual({ sent: false });
    expect(fake.statusUpdates).toEqual([{ orderId: fake.orders[0].id, body: { status_id: 10 } }]);
    expect(fake.orders[0].status).toBe('Completed');
  });
});

describe('BigCommerce webhook deliveries', () => {
  let fake: BigCommerceFake;
  const connection = (): BigCommerceConnection => ({
    platform: 'bigcommerce',
    baseUrl: fake.storeUrl,
    accessToken: fake.accessToken,
    hookSecret: 'a-hook-secret-of-ours',
  });
  const delivery = (d: {
    headers: Record<string, string>;
    body: string;
  }): StoreWebhookDelivery => ({
    headers: Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toLowerCase(), v])),
    rawBody: Buffer.from(d.body),
  });

  beforeAll(async () => {
    fake = await startBigCommerceFake({ orders: { count: 1 }, rateLimit: null });
    const client = bigcommercePlatform.connect(connection(), {
      allowedHosts: ['127.0.0.1'],
      timeoutMs: 5000,
    });
    await client.subscribeWebhooks('https://api.example/public/store_webhooks/bigcommerce/wf-1');
    client.close();
  });
  afterAll(() => fake.close());

  it('names the order of an order or shipment delivery; a retry has the same key', () => {
    const [orderHook, , shipmentHook] = fake.hooks;
    const orderId = fake.orders[0].id;
    const first = bigcommercePlatform.verifyWebhook(
      connection(),
      delivery(fake.delivery(orderHook.id, { type: 'order', id: orderId })),
    );
    expect(first).toEqual({
      kind: 'order',
      orderId: String(orderId),
      topic: 'store/order/created',
      dedupKey: expect.stringMatching(/^bigcommerce:[0-9a-f]{40}$/),
    });
    const retry = fake.delivery(
      orderHook.id,
      { type: 'order', id: orderId },
      { createdAt: Date.now() + 60_000 },
    );
    expect(bigcommercePlatform.verifyWebhook(connection(), delivery(retry))).toEqual(first);
    expect(
      bigcommercePlatform.verifyWebhook(
        connection(),
        delivery(fake.delivery(shipmentHook.id, { type: 'shipment', id: 1011, orderId })),
      ),
    ).toEqual(
      expect.objectContaining({
        kind: 'order',
        orderId: String(orderId),
        topic: 'store/shipment/created',
      }),
    );
  });

  it('delivers to every active hook of a scope, with our header', async () => {
    const receiver = await startReceiver('/public/store_webhooks/bigcommerce/wf-2');
    const client = bigcommercePlatform.connect(connection(), {
      allowedHosts: ['127.0.0.1'],
      timeoutMs: 5000,
    });
    try {
      // The hooks of beforeAll point at a host that does not exist: off for this one.
      for (const hook of fake.hooks) hook.is_active = false;
      await client.subscribeWebhooks(receiver.url);
      const orderId = fake.orders[0].id;
      expect(await fake.notifyHooks('store/order/updated', { type: 'order', id: orderId })).toEqual(
        [200],
      );
      expect(
        receiver.received.map((d) => bigcommercePlatform.verifyWebhook(connection(), d)),
      ).toEqual([
        expect.objectContaining({
          kind: 'order',
          orderId: String(orderId),
          topic: 'store/order/updated',
        }),
      ]);
    } finally {
      client.close();
      await receiver.close();
    }
  });

  it('rejects a delivery without our header or with another secret', () => {
    const hook = fake.hooks[0];
    const data = { type: 'order', id: fake.orders[0].id };
    expect(
      bigcommercePlatform.verifyWebhook(
        connection(),
        delivery(fake.delivery(hook.id, data, { headers: { [BIGCOMMERCE_HOOK_HEADER]: 'guess' } })),
      ),
    ).toEqual({ kind: 'rejected', reason: `missing or wrong ${BIGCOMMERCE_HOOK_HEADER}` });
    const unsigned = fake.delivery(hook.id, data);
    delete unsigned.headers[BIGCOMMERCE_HOOK_HEADER];
    expect(bigcommercePlatform.verifyWebhook(connection(), delivery(unsigned)).kind).toBe(
      'rejected',
    );
    expect(
      bigcommercePlatform.verifyWebhook(
        { ...connection(), hookSecret: null },
        delivery(fake.delivery(hook.id, data)),
      ).kind,
    ).toBe('rejected');
  });
});
