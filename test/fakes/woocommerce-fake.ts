import { createHash, createHmac, randomBytes } from 'node:crypto';
import {
  startFakeProviderServer,
  type FakeProviderServer,
  type FakeRequest,
  type FakeResponse,
  type FakeOutage,
} from './fake-provider-server';
import { generateSeedOrders, type SeedOptions, type SeedOrder } from './store-order-generator';

/**
 * A WooCommerce store's REST API v3 on loopback (storefront-apis.md, "WooCommerce"): HTTP Basic
 * with the consumer key and secret (401 otherwise), orders listed with `modified_after` /
 * `modified_before` (exclusive, like WordPress date queries), `dates_are_gmt`, `orderby`
 * (date, id, modified), `order`, `per_page` (at most 100), `page`, `offset`, `exclude`, with
 * X-WP-Total and X-WP-TotalPages; one order, PUT of an order (status), order notes; the
 * Shipment Tracking extension's `/wc-shipment-tracking/v3/orders/{id}/shipment-trackings`
 * (unless `shipmentTracking: false`: 404 rest_no_route); tracking numbers in order meta;
 * webhooks (create sends the unsigned `webhook_id=N` ping, deliveries are signed
 * X-WC-Webhook-Signature = base64 HMAC-SHA256 of the body with the webhook's secret). Writes
 * are recorded for assertions.
 */
export interface WooFakeOrder {
  id: number;
  number: string;
  status: string;
  currency: string;
  date_created_gmt: string;
  date_modified_gmt: string;
  total: string;
  billing: Record<string, string>;
  shipping: Record<string, string>;
  line_items: Array<{
    id: number;
    name: string;
    product_id: number;
    variation_id: number;
    quantity: number;
    subtotal: string;
    total: string;
    sku: string;
    price: number;
    meta_data: Array<{
      id: number;
      key: string;
      value: string;
      display_key: string;
      display_value: string;
    }>;
    image: { id: number; src: string } | null;
  }>;
  meta_data: Array<{ id: number; key: string; value: unknown }>;
}

export interface WooFakeTrackingItem {
  tracking_id: string;
  tracking_provider: string;
  tracking_link: string;
  tracking_number: string;
  date_shipped: string;
}

export interface WooFakeNote {
  id: number;
  note: string;
  customer_note: boolean;
  date_created_gmt: string;
}

export interface WooFakeWebhook {
  id: number;
  name: string;
  status: string;
  topic: string;
  delivery_url: string;
  secret: string;
  /** What the ping's POST answered (0: unreachable). */
  pingStatus: number;
}

export interface WooFakeOptions {
  orders?: SeedOptions;
  consumerKey?: string;
  consumerSecret?: string;
  /** The Shipment Tracking extension is installed (its routes exist); default true. */
  shipmentTracking?: boolean;
  /** Also (or only, with `shipmentTracking: false`) keep seeded numbers in this order meta key. */
  trackingMetaKey?: string | null;
  now?: () => number;
}

export interface WooCommerceFake {
  readonly server: FakeProviderServer;
  readonly baseUrl: string;
  readonly consumerKey: string;
  readonly consumerSecret: string;
  readonly orders: WooFakeOrder[];
  readonly trackings: Map<number, WooFakeTrackingItem[]>;
  readonly notes: Map<number, WooFakeNote[]>;
  readonly webhooks: WooFakeWebhook[];
  /** PUT bodies of orders, in order. */
  readonly orderUpdates: Array<{ orderId: number; body: unknown }>;
  order(id: number): WooFakeOrder | undefined;
  /** Changes an order as the shop would; its date_modified_gmt becomes now. */
  changeOrder(id: number, change: (order: WooFakeOrder) => void): WooFakeOrder;
  /** The merchant replaces a tracking item's number (the extension makes a new item). */
  setTrackingNumber(orderId: number, index: number, number: string): void;
  addOrder(seed: SeedOrder): WooFakeOrder;
  /**
   * Every later request answers 503 (`http503`), has its connection dropped (`reset`) or
   * finds nobody listening (`refused`); false: back to normal.
   */
  down(mode: FakeOutage): Promise<void>;
  rateLimitNext(retryAfterSeconds?: number): void;
  /** A signed delivery of an order, as WooCommerce builds it for this webhook. */
  signedDelivery(
    webhookId: number,
    orderId: number,
    options?: { secret?: string },
  ): { headers: Record<string, string>; body: string };
  /** Posts a signed delivery to the webhook's URL; answers the receiver's status. */
  deliver(webhookId: number, orderId: number): Promise<number>;
  /** Delivers an order to every active webhook of a topic (`order.updated`); their statuses. */
  notifyWebhooks(topic: string, orderId: number): Promise<number[]>;
  close(): Promise<void>;
}

const PER_PAGE_MAX = 100;
const ORDER_STATUSES = ['processing', 'completed'];

export async function startWooCommerceFake(options: WooFakeOptions = {}): Promise<WooCommerceFake> {
  const server = await startFakeProviderServer();
  const now = options.now ?? Date.now;
  const consumerKey = options.consumerKey ?? `ck_${randomBytes(20).toString('hex')}`;
  const consumerSecret = options.consumerSecret ?? `cs_${randomBytes(20).toString('hex')}`;
  const extension = options.shipmentTracking ?? true;
  const metaKey = options.trackingMetaKey ?? null;
  const orders: WooFakeOrder[] = [];
  const trackings = new Map<number, WooFakeTrackingItem[]>();
  const notes = new Map<number, WooFakeNote[]>();
  const webhooks: WooFakeWebhook[] = [];
  const orderUpdates: WooCommerceFake['orderUpdates'] = [];
  let sequence = 1;
  const gmt = (at: number) => new Date(at).toISOString().slice(0, 19);

  const addOrder = (seed: SeedOrder): WooFakeOrder => {
    const id = 700 + orders.length + 1;
    const person = {
      first_name: seed.address.firstName,
      last_name: seed.address.lastName,
      company: seed.address.company ?? '',
      address_1: seed.address.line1,
      address_2: seed.address.line2 ?? '',
      city: seed.address.city,
      state: seed.address.state,
      postcode: seed.address.postcode,
      country: seed.address.countryIso2,
      phone: seed.address.phone,
    };
    const order: WooFakeOrder = {
      id,
      number: seed.number,
      status: ORDER_STATUSES[seed.index % 2],
      currency: seed.currency,
      date_created_gmt: gmt(seed.createdAt.getTime()),
      date_modified_gmt: gmt(seed.updatedAt.getTime()),
      total: seed.total,
      billing: { ...person, email: seed.email },
      shipping: { ...person },
      line_items: seed.lines.map((line) => ({
        id: id * 10 + line.index,
        name: line.name,
        product_id: 300 + line.index,
        variation_id: line.options.Size ? 400 + line.index : 0,
        quantity: line.qty,
        subtotal: (Number(line.price) * line.qty).toFixed(2),
        total: (Number(line.price) * line.qty).toFixed(2),
        sku: line.sku,
        price: Number(line.price),
        meta_data: Object.entries(line.options).map(([key, value], i) => ({
          id: sequence + i,
          key: key.toLowerCase(),
          value,
          display_key: key,
          display_value: value,
        })),
        image: {
          id: 90 + line.index,
          src: `https://shop.example/img/${line.sku.toLowerCase()}.jpg`,
        },
      })),
      meta_data: metaKey
        ? [
            {
              id: sequence++,
              key: metaKey,
              value: seed.fulfillments.map((f) => f.trackingNumber).join(','),
            },
          ]
        : [],
    };
    orders.push(order);
    if (extension)
      trackings.set(
        id,
        seed.fulfillments.map((f) => ({
          tracking_id: createHash('md5').update(`${id}-${f.trackingNumber}`).digest('hex'),
          tracking_provider: f.carrierName ?? 'Other',
          tracking_link: '',
          tracking_number: f.trackingNumber,
          date_shipped: f.createdAt.toISOString().slice(0, 10),
        })),
      );
    return order;
  };
  for (const seed of options.orders ? generateSeedOrders(options.orders) : []) addOrder(seed);
  const findOrder = (id: number) => orders.find((o) => o.id === id);
  const touch = (order: WooFakeOrder) => {
    order.date_modified_gmt = gmt(now());
  };

  /** Why a request is not answered normally (down, bad credentials), or null. */
  const refusal = (req: FakeRequest): FakeResponse | null => {
    const outage = server.outageAnswer('<html><body>Service Unavailable</body></html>');
    if (outage) return outage;
    const basic = /^Basic (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const [key, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
    if (key !== consumerKey || secret !== consumerSecret)
      return wpError(401, 'woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.');
    return null;
  };
  const guard = (req: FakeRequest, then: () => FakeResponse): FakeResponse =>
    refusal(req) ?? then();

  server.on('GET', '/wp-json/wc/v3/orders', (req) =>
    guard(req, () => {
      const q = req.query;
      const perPage = Number(q.get('per_page') ?? 10);
      const page = Number(q.get('page') ?? 1);
      if (!Number.isInteger(perPage) || perPage < 1 || perPage > PER_PAGE_MAX)
        return wpError(400, 'rest_invalid_param', 'Invalid parameter(s): per_page');
      if (!Number.isInteger(page) || page < 1)
        return wpError(400, 'rest_invalid_param', 'Invalid parameter(s): page');
      // WordPress date queries: `after` and `before` are exclusive; times compared in GMT.
      const after = q.get('modified_after');
      const before = q.get('modified_before');
      const excluded = new Set((q.get('exclude') ?? '').split(',').filter(Boolean).map(Number));
      let list = orders.filter(
        (o) =>
          !excluded.has(o.id) &&
          (after === null || Date.parse(`${o.date_modified_gmt}Z`) > Date.parse(zulu(after))) &&
          (before === null || Date.parse(`${o.date_modified_gmt}Z`) < Date.parse(zulu(before))),
      );
      const orderby = q.get('orderby') ?? 'date';
      const direction = q.get('order') === 'asc' ? 1 : -1;
      // Ties keep the database's order (by id): WooCommerce sorts by the one column.
      const key = (o: WooFakeOrder) =>
        orderby === 'id'
          ? o.id
          : Date.parse(`${orderby === 'modified' ? o.date_modified_gmt : o.date_created_gmt}Z`);
      list = [...list].sort((a, b) => direction * (key(a) - key(b)) || a.id - b.id);
      const offset = Number(q.get('offset') ?? (page - 1) * perPage);
      const slice = list.slice(offset, offset + perPage);
      return {
        status: 200,
        body: slice.map(view),
        headers: {
          'X-WP-Total': String(list.length),
          'X-WP-TotalPages': String(Math.ceil(list.length / perPage)),
        },
      };
    }),
  );

  const view = (order: WooFakeOrder) => ({
    ...order,
    date_created: order.date_created_gmt,
    date_modified: order.date_modified_gmt,
  });

  server.onPrefix('GET', '/wp-json/wc/v3/orders/', (req) =>
    guard(req, () => {
      const [, idText, sub] = /^\/wp-json\/wc\/v3\/orders\/(\d+)(\/notes)?$/.exec(req.path) ?? [];
      const order = findOrder(Number(idText));
      if (!order) return wpError(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
      if (sub) return { status: 200, body: notes.get(order.id) ?? [] };
      return { status: 200, body: view(order) };
    }),
  );

  server.onPrefix('PUT', '/wp-json/wc/v3/orders/', (req) =>
    guard(req, () => {
      const order = findOrder(Number(/^\/wp-json\/wc\/v3\/orders\/(\d+)$/.exec(req.path)?.[1]));
      if (!order) return wpError(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
      orderUpdates.push({ orderId: order.id, body: req.body });
      const status = (req.body as { status?: unknown } | undefined)?.status;
      if (typeof status === 'string') order.status = status;
      touch(order);
      return { status: 200, body: view(order) };
    }),
  );

  server.onPrefix('POST', '/wp-json/wc/v3/orders/', (req) =>
    guard(req, () => {
      const order = findOrder(
        Number(/^\/wp-json\/wc\/v3\/orders\/(\d+)\/notes$/.exec(req.path)?.[1]),
      );
      if (!order) return wpError(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
      const body = (req.body ?? {}) as { note?: unknown; customer_note?: unknown };
      if (typeof body.note !== 'string' || body.note === '')
        return wpError(400, 'rest_missing_callback_param', 'Missing parameter(s): note');
      const note: WooFakeNote = {
        id: sequence++,
        note: body.note,
        customer_note: body.customer_note === true,
        date_created_gmt: gmt(now()),
      };
      notes.set(order.id, [...(notes.get(order.id) ?? []), note]);
      return { status: 201, body: note };
    }),
  );

  const trackingRoute = (req: FakeRequest, post: boolean): FakeResponse =>
    guard(req, () => {
      if (!extension)
        return wpError(
          404,
          'rest_no_route',
          'No route was found matching the URL and request method.',
        );
      const match = /^\/wp-json\/wc-shipment-tracking\/v3\/orders\/(\d+)\/shipment-trackings$/.exec(
        req.path,
      );
      const order = findOrder(Number(match?.[1]));
      if (!order) return wpError(404, 'woocommerce_rest_order_invalid_id', 'Invalid order ID.');
      if (!post) return { status: 200, body: trackings.get(order.id) ?? [] };
      const body = (req.body ?? {}) as Record<string, unknown>;
      const item: WooFakeTrackingItem = {
        tracking_id: randomBytes(16).toString('hex'),
        tracking_provider: String(body.tracking_provider ?? body.custom_tracking_provider ?? ''),
        tracking_link: String(body.custom_tracking_link ?? ''),
        tracking_number: String(body.tracking_number ?? ''),
        date_shipped: String(body.date_shipped ?? gmt(now()).slice(0, 10)),
      };
      trackings.set(order.id, [...(trackings.get(order.id) ?? []), item]);
      touch(order);
      return { status: 201, body: item };
    });
  server.onPrefix('GET', '/wp-json/wc-shipment-tracking/v3/orders/', (req) =>
    trackingRoute(req, false),
  );
  server.onPrefix('POST', '/wp-json/wc-shipment-tracking/v3/orders/', (req) =>
    trackingRoute(req, true),
  );

  server.on('GET', '/wp-json/wc/v3/webhooks', (req) =>
    guard(req, () => ({
      status: 200,
      body: webhooks.map(({ secret: _secret, pingStatus: _ping, ...w }) => w),
    })),
  );
  server.on('POST', '/wp-json/wc/v3/webhooks', async (req) => {
    const refused = refusal(req);
    if (refused) return refused;
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (
      typeof body.topic !== 'string' ||
      !/^(order|product|customer|coupon)\.(created|updated|deleted|restored)$/.test(body.topic)
    )
      return wpError(
        400,
        'woocommerce_rest_webhook_invalid_topic',
        'Webhook topic is required and must be valid.',
      );
    if (typeof body.delivery_url !== 'string' || !/^https?:\/\//.test(body.delivery_url))
      return wpError(400, 'rest_invalid_param', 'Invalid parameter(s): delivery_url');
    const webhook: WooFakeWebhook = {
      id: sequence++,
      name: String(body.name ?? ''),
      status: String(body.status ?? 'active'),
      topic: body.topic,
      delivery_url: body.delivery_url,
      secret: typeof body.secret === 'string' ? body.secret : randomBytes(16).toString('hex'),
      pingStatus: 0,
    };
    webhooks.push(webhook);
    // WooCommerce pings the delivery URL on creation: unsigned, form-encoded `webhook_id=N`.
    webhook.pingStatus = await fetch(webhook.delivery_url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'User-Agent': 'WooCommerce/9.0 Hookshot (WordPress/6.5)',
      },
      body: `webhook_id=${webhook.id}`,
    })
      .then(async (r) => (await r.text(), r.status))
      .catch(() => 0);
    const { secret: _secret, pingStatus: _ping, ...shown } = webhook;
    return { status: 201, body: shown };
  });

  const signedDelivery: WooCommerceFake['signedDelivery'] = (webhookId, orderId, opts = {}) => {
    const webhook = webhooks.find((w) => w.id === webhookId);
    const order = findOrder(orderId);
    if (!webhook || !order) throw new Error(`no webhook ${webhookId} or order ${orderId}`);
    const body = JSON.stringify(view(order));
    const [resource, event] = webhook.topic.split('.');
    return {
      headers: {
        'Content-Type': 'application/json',
        'X-WC-Webhook-Source': `${server.baseUrl}/`,
        'X-WC-Webhook-Topic': webhook.topic,
        'X-WC-Webhook-Resource': resource,
        'X-WC-Webhook-Event': event,
        'X-WC-Webhook-Signature': createHmac('sha256', opts.secret ?? webhook.secret)
          .update(body)
          .digest('base64'),
        'X-WC-Webhook-ID': String(webhook.id),
        'X-WC-Webhook-Delivery-ID': createHash('md5')
          .update(`${webhook.id}${Math.floor(now() / 1000)}`)
          .digest('hex'),
      },
      body,
    };
  };

  return {
    server,
    baseUrl: server.baseUrl,
    consumerKey,
    consumerSecret,
    orders,
    trackings,
    notes,
    webhooks,
    orderUpdates,
    order: findOrder,
    changeOrder: (id, change) => {
      const order = findOrder(id);
      if (!order) throw new Error(`no order ${id}`);
      change(order);
      touch(order);
      return order;
    },
    setTrackingNumber: (orderId, index, number) => {
      const order = findOrder(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      const items = trackings.get(orderId) ?? [];
      // The extension has no update: the old item is deleted and a new one added.
      items[index] = {
        ...items[index],
        tracking_id: randomBytes(16).toString('hex'),
        tracking_number: number,
      };
      trackings.set(orderId, items);
      const meta = order.meta_data.find((m) => m.key === metaKey);
      if (meta && typeof meta.value === 'string') {
        const numbers = meta.value.split(',');
        numbers[index] = number;
        meta.value = numbers.join(',');
      }
      touch(order);
    },
    addOrder,
    down: server.down,
    rateLimitNext: (retryAfterSeconds = 1) =>
      server.failNext({
        status: 429,
        headers: { 'Retry-After': String(retryAfterSeconds) },
        body: { code: 'too_many_requests', message: 'Too many requests.', data: { status: 429 } },
      }),
    signedDelivery,
    deliver: async (webhookId, orderId) => {
      const webhook = webhooks.find((w) => w.id === webhookId)!;
      const delivery = signedDelivery(webhookId, orderId);
      const response = await fetch(webhook.delivery_url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
      });
      await response.text();
      return response.status;
    },
    notifyWebhooks: async (topic, orderId) => {
      const statuses: number[] = [];
      for (const webhook of webhooks.filter((w) => w.topic === topic && w.status === 'active')) {
        const delivery = signedDelivery(webhook.id, orderId);
        const response = await fetch(webhook.delivery_url, {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
        });
        await response.text();
        statuses.push(response.status);
      }
      return statuses;
    },
    close: () => server.close(),
  };
}

function wpError(status: number, code: string, message: string): FakeResponse {
  return { status, body: { code, message, data: { status } } };
}

/** WooCommerce reads dates without a zone as UTC when dates_are_gmt is set (the client sets it). */
function zulu(date: string): string {
  return /[zZ]|[+-]\d\d:\d\d$/.test(date) ? date : `${date}Z`;
}
