import { readAllChanged } from '../../../test/fakes/store-client-harness';
import { virtualClock, type VirtualClock } from '../../../test/fakes/virtual-clock';
import { startReceiver, type Receiver } from '../../../test/fakes/webhook-receiver';
import {
  startWooCommerceFake,
  type WooCommerceFake,
  type WooFakeOptions,
} from '../../../test/fakes/woocommerce-fake';
import { StoreAddressRefused, StoreCredentialsRejected, StoreUnavailable } from '../store-errors';
import type { StoreWebhookDelivery, WooCommerceConnection } from '../store-platform';
import type { StoreHttpDeps } from '../transport/store-http';
import { woocommercePlatform } from './index';
import type { WooCommerceClient } from './woocommerce-client';

const START = new Date('2024-05-01T00:00:00Z');

describe('WooCommerce client against the WooCommerce fake', () => {
  let fake: WooCommerceFake;
  let clock: VirtualClock;
  let clients: WooCommerceClient[];

  const start = async (options: WooFakeOptions = {}) => {
    clock = virtualClock();
    fake = await startWooCommerceFake({ now: clock.now, ...options });
  };
  const connection = (fields: Partial<WooCommerceConnection> = {}): WooCommerceConnection => ({
    platform: 'woocommerce',
    baseUrl: fake.baseUrl,
    consumerKey: fake.consumerKey,
    consumerSecret: fake.consumerSecret,
    webhookSecret: 'a-webhook-secret-of-ours',
    trackingMetaKey: null,
    ...fields,
  });
  const deps = (fields: Partial<StoreHttpDeps> = {}): StoreHttpDeps => ({
    allowedHosts: ['127.0.0.1'],
    timeoutMs: 5000,
    clock,
    ...fields,
  });
  const connect = (conn = connection(), d = deps()) => {
    const client = woocommercePlatform.connect(conn, d) as WooCommerceClient;
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

  it('pages through 260 changed orders with their tracking items', async () => {
    await start({ orders: { count: 260, seed: 11 } });
    const { orders, pages } = await readAllChanged(connect(), START);
    expect(orders).toHaveLength(260);
    expect(new Set(orders.map((o) => o.id)).size).toBe(260);
    expect(pages).toBeGreaterThanOrEqual(3);
    const listings = fake.server.calls('GET', '/wp-json/wc/v3/orders');
    expect(
      listings.every(
        (r) => r.query.get('per_page') === '100' && r.query.get('orderby') === 'modified',
      ),
    ).toBe(true);
    expect(listings.every((r) => r.headers.authorization?.startsWith('Basic '))).toBe(true);
    const seeded = fake.orders[42];
    const order = orders.find((o) => o.id === String(seeded.id))!;
    expect(order).toEqual(
      expect.objectContaining({
        platform: 'woocommerce',
        number: seeded.number,
        email: seeded.billing.email,
        total: seeded.total,
        status: {
          code: seeded.status,
          title: seeded.status === 'completed' ? 'Completed' : 'Processing',
        },
        updatedAt: new Date(`${seeded.date_modified_gmt}Z`),
      }),
    );
    expect(order.lines.map((l) => [l.id, l.sku, l.quantity])).toEqual(
      seeded.line_items.map((l) => [String(l.id), l.sku, l.quantity]),
    );
    expect(order.shipments.map((s) => [s.id, s.trackingNumbers[0], s.carrierName])).toEqual(
      fake.trackings
        .get(seeded.id)!
        .map((t) => [t.tracking_id, t.tracking_number, t.tracking_provider]),
    );
    expect(order.shippingAddress?.countryIso2).toBe(seeded.shipping.country);
  });

  it('loses no order when one already read changes between pages', async () => {
    await start({ orders: { count: 150, seed: 4 } });
    const client = connect();
    const first = await client.listChangedOrders({ since: START, page: null });
    expect(first.orders).toHaveLength(100);
    // The shop changes an order of the first page: it moves to the end of the listing.
    clock.advance(60_000);
    fake.changeOrder(Number(first.orders[3].id), (o) => {
      o.status = 'completed';
    });
    const read = [...first.orders];
    let page = first.next;
    while (page) {
      const answer = await client.listChangedOrders({ since: START, page });
      read.push(...answer.orders);
      page = answer.next;
    }
    expect(new Set(read.map((o) => o.id))).toEqual(new Set(fake.orders.map((o) => String(o.id))));
    expect(read.filter((o) => o.id === first.orders[3].id).map((o) => o.status?.code)).toEqual([
      first.orders[3].status?.code,
      'completed',
    ]);
  });

  it('reads tracking numbers from the order meta key when the extension is absent', async () => {
    await start({
      orders: { count: 3, seed: 2 },
      shipmentTracking: false,
      trackingMetaKey: 'tracking_number',
    });
    const client = connect(connection({ trackingMetaKey: 'tracking_number' }));
    const { orders } = await readAllChanged(client, START);
    const seeded = fake.orders[0];
    const numbers = String(seeded.meta_data[0].value).split(',');
    expect(orders[0].shipments.map((s) => [s.id, s.trackingNumbers[0]])).toEqual(
      numbers.map((n, i) => [`${seeded.id}-meta-${i + 1}`, n]),
    );
    // The extension was asked once; its absence is remembered.
    expect(fake.server.requests.filter((r) => r.path.includes('shipment-trackings'))).toHaveLength(
      1,
    );
  });

  it('reads one order, null when the store has none', async () => {
    await start({ orders: { count: 2 } });
    const client = connect();
    expect((await client.readOrder(String(fake.orders[1].id)))?.number).toBe(fake.orders[1].number);
    expect(await client.readOrder('99999')).toBeNull();
  });

  it('sees a changed tracking number as a new tracking item', async () => {
    await start({ orders: { count: 1 } });
    const client = connect();
    const before = (await client.readOrder(String(fake.orders[0].id)))!;
    fake.setTrackingNumber(fake.orders[0].id, 0, 'TM102CHANGED1TM');
    const after = (await client.readOrder(String(fake.orders[0].id)))!;
    expect(after.shipments[0].trackingNumbers).toEqual(['TM102CHANGED1TM']);
    expect(after.shipments[0].id).not.toBe(before.shipments[0].id);
  });

  it('reports wrong keys as rejected credentials', async () => {
    await start({ orders: { count: 1 } });
    const client = connect(connection({ consumerSecret: 'cs_wrong' }));
    const error = await client.readOrder('701').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreCredentialsRejected);
    expect((error as Error).message).toBe('WooCommerce refused the credentials (HTTP 401)');
  });

  it('honours 429 with Retry-After', async () => {
    await start({ orders: { count: 1 } });
    const client = connect();
    fake.rateLimitNext(7);
    expect(await client.readOrder(String(fake.orders[0].id))).not.toBeNull();
    expect(clock.slept).toContain(7000);
  });

  it('reports a store that is down as unavailable without its page', async () => {
    await start({ orders: { count: 1 } });
    const client = connect();
    await fake.down('http503');
    const error = await client.readOrder('701').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect((error as Error).message).toBe('WooCommerce store unavailable: HTTP 503');
    expect((error as Error).message).not.toContain('html');
    fake.down('reset');
    await expect(client.readOrder('701')).rejects.toThrow(
      'WooCommerce store unavailable: it could not be reached',
    );
  });

  it('refuses a private store address unless allow-listed', async () => {
    await start({ orders: { count: 1 } });
    const client = connect(
      connection({ baseUrl: fake.baseUrl.replace('http:', 'https:') }),
      deps({ allowedHosts: [] }),
    );
    await expect(client.readOrder('701')).rejects.toBeInstanceOf(StoreAddressRefused);
    expect(fake.server.requests).toHaveLength(0);
  });

  it('creates its webhooks once, answering the ping', async () => {
    await start();
    const receiver = await startReceiver();
    try {
      const client = connect();
      const created = await client.subscribeWebhooks(receiver.url);
      expect(created.map((w) => w.topic)).toEqual(['order.created', 'order.updated']);
      await client.subscribeWebhooks(receiver.url);
      expect(fake.webhooks.map((w) => [w.topic, w.delivery_url, w.secret])).toEqual([
        ['order.created', receiver.url, 'a-webhook-secret-of-ours'],
        ['order.updated', receiver.url, 'a-webhook-secret-of-ours'],
      ]);
      // The pings reached the receiver, and our check takes them for pings.
      expect(fake.webhooks.map((w) => w.pingStatus)).toEqual([200, 200]);
      expect(
        receiver.received.map((d) => woocommercePlatform.verifyWebhook(connection(), d)),
      ).toEqual([{ kind: 'ping' }, { kind: 'ping' }]);
    } finally {
      await receiver.close();
    }
  });

  it('adds a note once and completes the order once', async () => {
    await start({ orders: { count: 1 } });
    const client = connect();
    const orderId = String(fake.orders[0].id);
    const note = {
      kind: 'woocommerce.note' as const,
      orderId,
      note: 'Shipment X: Delivered.',
      customerNote: true,
    };
    expect(await client.push(note)).toEqual({ sent: true });
    expect(await client.push(note)).toEqual({ sent: false });
    expect(fake.notes.get(fake.orders[0].id)!.map((n) => [n.note, n.customer_note])).toEqual([
      ['Shipment X: Delivered.', true],
    ]);
    fake.orders[0].status = 'processing';
    expect(await client.push({ kind: 'woocommerce.complete', orderId })).toEqual({ sent: true });
    expect(await client.push({ kind: 'woocommerce.complete', orderId })).toEqual({ sent: false });
    expect(fake.orderUpdates).toEqual([
      { orderId: fake.orders[0].id, body: { status: 'completed' } },
    ]);
  });
});

describe('WooCommerce webhook deliveries', () => {
  let fake: WooCommerceFake;
  let receiver: Receiver;
  const connection = (): WooCommerceConnection => ({
    platform: 'woocommerce',
    baseUrl: fake.baseUrl,
    consumerKey: fake.consumerKey,
    consumerSecret: fake.consumerSecret,
    webhookSecret: 'a-webhook-secret-of-ours',
  });

  beforeAll(async () => {
    fake = await startWooCommerceFake({ orders: { count: 1 } });
    receiver = await startReceiver();
    const client = woocommercePlatform.connect(connection(), {
      allowedHosts: ['127.0.0.1'],
      timeoutMs: 5000,
    });
    await client.subscribeWebhooks(receiver.url);
    client.close();
  });
  afterAll(async () => {
    await receiver.close();
    await fake.close();
  });

  const delivery = (webhook: {
    headers: Record<string, string>;
    body: string;
  }): StoreWebhookDelivery => ({
    headers: Object.fromEntries(
      Object.entries(webhook.headers).map(([k, v]) => [k.toLowerCase(), v]),
    ),
    rawBody: Buffer.from(webhook.body),
  });

  it('accepts a signed delivery; a retry has the same dedup key', async () => {
    const order = fake.orders[0];
    const updated = fake.webhooks.find((w) => w.topic === 'order.updated')!;
    expect(await fake.deliver(updated.id, order.id)).toBe(200);
    const verdict = woocommercePlatform.verifyWebhook(connection(), receiver.received.at(-1)!);
    expect(verdict).toEqual({
      kind: 'order',
      orderId: String(order.id),
      topic: 'order.updated',
      dedupKey: `woocommerce:${order.id}:${order.date_modified_gmt}`,
    });
    const again = woocommercePlatform.verifyWebhook(
      connection(),
      delivery(fake.signedDelivery(updated.id, order.id)),
    );
    expect(again).toEqual(verdict);
  });

  it('delivers a change to every webhook of its topic', async () => {
    const before = receiver.received.length;
    expect(await fake.notifyWebhooks('order.updated', fake.orders[0].id)).toEqual([200]);
    const delivered = receiver.received.slice(before);
    expect(delivered.map((d) => woocommercePlatform.verifyWebhook(connection(), d).kind)).toEqual([
      'order',
    ]);
  });

  it('rejects a wrong signature or a changed body', () => {
    const order = fake.orders[0];
    const webhook = fake.webhooks[0];
    const forged = fake.signedDelivery(webhook.id, order.id, { secret: 'guess' });
    expect(woocommercePlatform.verifyWebhook(connection(), delivery(forged)).kind).toBe('rejected');
    const signed = fake.signedDelivery(webhook.id, order.id);
    const changed = { ...signed, body: signed.body.replace('"total"', '"total" ') };
    expect(woocommercePlatform.verifyWebhook(connection(), delivery(changed)).kind).toBe(
      'rejected',
    );
    // A signed body that merely looks like a ping is checked as a delivery.
    expect(
      woocommercePlatform.verifyWebhook(connection(), {
        headers: { 'x-wc-webhook-signature': 'AAAA' },
        rawBody: Buffer.from('webhook_id=1'),
      }).kind,
    ).toBe('rejected');
  });
});
