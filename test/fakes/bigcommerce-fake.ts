import { createHash, randomBytes } from 'node:crypto';
import {
  startFakeProviderServer,
  type FakeProviderServer,
  type FakeRequest,
  type FakeResponse,
  type FakeOutage,
} from './fake-provider-server';
import { generateSeedOrders, type SeedOptions, type SeedOrder } from './store-order-generator';

/**
 * A BigCommerce store's API on loopback (storefront-apis.md, "BigCommerce"):
 * `/stores/{hash}/v2/orders` (`min_date_modified`, `max_date_modified`, `min_id`, `sort`,
 * `page`, `limit` up to 250; an empty list is 204), one order, PUT of its `status_id`, its
 * products, shipments and shipping addresses; `/v3/hooks` (list, create with custom headers,
 * update). X-Auth-Token auth (401 otherwise). Every answer carries the rate headers
 * X-Rate-Limit-Requests-Left, -Time-Reset-Ms, -Requests-Quota, -Time-Window-Ms of a window of
 * `quota` requests per `windowMs` (150 per 30 s, the Standard plan); past it, 429. Deliveries
 * are thin (`{scope, store_id, data: {type, id}, hash, created_at, producer}`) with the hook's
 * custom headers, and a retry has the same `hash`.
 */
export interface BigCommerceFakeAddress {
  first_name: string;
  last_name: string;
  company: string;
  street_1: string;
  street_2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  country_iso2: string;
  phone: string;
  email: string;
}

export interface BigCommerceFakeOrder {
  id: number;
  date_created: string;
  date_modified: string;
  status_id: number;
  status: string;
  subtotal_ex_tax: string;
  subtotal_inc_tax: string;
  total_ex_tax: string;
  total_inc_tax: string;
  currency_code: string;
  billing_address: BigCommerceFakeAddress;
  shippingAddresses: Array<BigCommerceFakeAddress & { id: number }>;
  products: Array<{
    id: number;
    product_id: number;
    variant_id: number;
    name: string;
    sku: string;
    quantity: number;
    base_price: string;
    price_inc_tax: string;
    product_options: Array<{ display_name: string; display_value: string }>;
    order_address_id: number;
  }>;
  shipments: Array<{
    id: number;
    date_created: string;
    tracking_number: string;
    shipping_method: string;
    shipping_provider: string;
    tracking_carrier: string;
    tracking_link: string;
    comments: string;
    order_address_id: number;
    items: Array<{ order_product_id: number; product_id: number; quantity: number }>;
  }>;
}

export interface BigCommerceFakeHook {
  id: number;
  scope: string;
  destination: string;
  is_active: boolean;
  headers: Record<string, string>;
}

export interface BigCommerceFakeOptions {
  orders?: SeedOptions;
  storeHash?: string;
  accessToken?: string;
  /** Requests per window; default 150 per 30 s. null: no limit. */
  rateLimit?: { quota: number; windowMs: number } | null;
  now?: () => number;
}

export interface BigCommerceFake {
  readonly server: FakeProviderServer;
  /** `{baseUrl}/stores/{hash}`: the connection's base URL. */
  readonly storeUrl: string;
  readonly baseUrl: string;
  readonly storeHash: string;
  readonly accessToken: string;
  readonly orders: BigCommerceFakeOrder[];
  readonly hooks: BigCommerceFakeHook[];
  /** PUT bodies of orders, in order. */
  readonly statusUpdates: Array<{ orderId: number; body: unknown }>;
  /** Answers that were 429. */
  readonly limited: number;
  order(id: number): BigCommerceFakeOrder | undefined;
  changeOrder(id: number, change: (order: BigCommerceFakeOrder) => void): BigCommerceFakeOrder;
  setTrackingNumber(orderId: number, shipmentIndex: number, number: string): void;
  addOrder(seed: SeedOrder): BigCommerceFakeOrder;
  /**
   * Every later request answers 503 (`http503`), has its connection dropped (`reset`) or
   * finds nobody listening (`refused`); false: back to normal.
   */
  down(mode: FakeOutage): Promise<void>;
  /** A thin delivery as BigCommerce sends it to this hook (its custom headers included). */
  delivery(
    hookId: number,
    data: Record<string, unknown>,
    options?: { headers?: Record<string, string>; createdAt?: number },
  ): { headers: Record<string, string>; body: string };
  /** Posts a delivery to the hook's destination; answers the receiver's status. */
  deliver(hookId: number, data: Record<string, unknown>): Promise<number>;
  /** Delivers to every active hook of a scope (`store/order/updated`); their statuses. */
  notifyHooks(scope: string, data: Record<string, unknown>): Promise<number[]>;
  close(): Promise<void>;
}

const STATUSES: Record<number, string> = {
  2: 'Shipped',
  3: 'Partially Shipped',
  10: 'Completed',
  11: 'Awaiting Fulfillment',
};
const MAX_LIMIT = 250;

export async function startBigCommerceFake(
  options: BigCommerceFakeOptions = {},
): Promise<BigCommerceFake> {
  const server = await startFakeProviderServer();
  const now = options.now ?? Date.now;
  const storeHash = options.storeHash ?? `s${randomBytes(4).toString('hex')}`;
  const accessToken = options.accessToken ?? randomBytes(16).toString('hex');
  const limit =
    options.rateLimit === undefined ? { quota: 150, windowMs: 30_000 } : options.rateLimit;
  const window = { start: 0, count: 0 };
  const orders: BigCommerceFakeOrder[] = [];
  const hooks: BigCommerceFakeHook[] = [];
  const statusUpdates: BigCommerceFake['statusUpdates'] = [];
  let limited = 0;
  let sequence = 1;
  const rfc2822 = (at: number) => new Date(at).toUTCString().replace('GMT', '+0000');

  const addOrder = (seed: SeedOrder): BigCommerceFakeOrder => {
    const id = 100 + orders.length + 1;
    const address: BigCommerceFakeAddress = {
      first_name: seed.address.firstName,
      last_name: seed.address.lastName,
      company: seed.address.company ?? '',
      street_1: seed.address.line1,
      street_2: seed.address.line2 ?? '',
      city: seed.address.city,
      state: seed.address.state,
      zip: seed.address.postcode,
      country: seed.address.country,
      country_iso2: seed.address.countryIso2,
      phone: seed.address.phone,
      email: seed.email,
    };
    const addressId = id * 10;
    const products = seed.lines.map((line) => ({
      id: id * 100 + line.index,
      product_id: 500 + line.index,
      variant_id: 600 + line.index,
      name: line.name,
      sku: line.sku,
      quantity: line.qty,
      base_price: Number(line.price).toFixed(4),
      price_inc_tax: Number(line.price).toFixed(4),
      product_options: Object.entries(line.options).map(([display_name, display_value]) => ({
        display_name,
        display_value,
      })),
      order_address_id: addressId,
    }));
    const order: BigCommerceFakeOrder = {
      id,
      date_created: rfc2822(seed.createdAt.getTime()),
      date_modified: rfc2822(seed.updatedAt.getTime()),
      status_id: 2,
      status: STATUSES[2],
      subtotal_ex_tax: Number(seed.subtotal).toFixed(4),
      subtotal_inc_tax: Number(seed.subtotal).toFixed(4),
      total_ex_tax: Number(seed.total).toFixed(4),
      total_inc_tax: Number(seed.total).toFixed(4),
      currency_code: seed.currency,
      billing_address: address,
      shippingAddresses: [{ ...address, id: addressId }],
      products,
      shipments: seed.fulfillments.map((f) => ({
        id: id * 10 + f.index,
        date_created: rfc2822(f.createdAt.getTime()),
        tracking_number: f.trackingNumber,
        shipping_method: 'Standard',
        shipping_provider: '',
        tracking_carrier: (f.carrierName ?? '').toLowerCase().replace(/\s+/g, ''),
        tracking_link: '',
        comments: '',
        order_address_id: addressId,
        items: f.lines.map((l) => ({
          order_product_id: products[l.lineIndex].id,
          product_id: products[l.lineIndex].product_id,
          quantity: l.qty,
        })),
      })),
    };
    orders.push(order);
    return order;
  };
  for (const seed of options.orders ? generateSeedOrders(options.orders) : []) addOrder(seed);
  const findOrder = (id: number) => orders.find((o) => o.id === id);
  const touch = (order: BigCommerceFakeOrder) => {
    order.date_modified = rfc2822(now());
  };

  /** The window's headers after counting this request; null when it is over the quota. */
  const rate = (): { headers: Record<string, string>; over: boolean } => {
    if (!limit) return { headers: {}, over: false };
    const at = now();
    if (at >= window.start + limit.windowMs) {
      window.start = at;
      window.count = 0;
    }
    window.count++;
    const over = window.count > limit.quota;
    return {
      over,
      headers: {
        'X-Rate-Limit-Requests-Left': String(Math.max(0, limit.quota - window.count)),
        'X-Rate-Limit-Time-Reset-Ms': String(window.start + limit.windowMs - at),
        'X-Rate-Limit-Requests-Quota': String(limit.quota),
        'X-Rate-Limit-Time-Window-Ms': String(limit.windowMs),
      },
    };
  };

  const handle =
    (fn: (req: FakeRequest, rest: string) => FakeResponse) =>
    (req: FakeRequest): FakeResponse => {
      const outage = server.outageAnswer('<h1>Service Unavailable</h1>');
      if (outage) return outage;
      const prefix = `/stores/${storeHash}`;
      if (!req.path.startsWith(`${prefix}/`))
        return v2Error(404, 'The requested resource was not found.');
      if (req.headers['x-auth-token'] !== accessToken)
        return v2Error(401, 'You have not been authorized to access this resource.');
      const { headers, over } = rate();
      if (over) {
        limited++;
        return { status: 429, headers, body: v2Error(429, 'Too many requests.').body };
      }
      const answer = fn(req, req.path.slice(prefix.length));
      return { ...answer, headers: { ...headers, ...answer.headers } };
    };

  const orderView = (o: BigCommerceFakeOrder) => {
    const { shippingAddresses: _a, products: _p, shipments: _s, ...fields } = o;
    return {
      ...fields,
      items_total: o.products.reduce((sum, p) => sum + p.quantity, 0),
      products: {
        url: `${server.baseUrl}/stores/${storeHash}/v2/orders/${o.id}/products`,
        resource: `/orders/${o.id}/products`,
      },
      shipping_addresses: {
        url: `${server.baseUrl}/stores/${storeHash}/v2/orders/${o.id}/shipping_addresses`,
        resource: `/orders/${o.id}/shipping_addresses`,
      },
    };
  };
  const list = (items: unknown[]): FakeResponse =>
    items.length === 0 ? { status: 204 } : { status: 200, body: items };

  server.onPrefix(
    'GET',
    '/stores/',
    handle((req, rest) => {
      if (rest === '/v2/orders') return listOrders(req);
      const match = /^\/v2\/orders\/(\d+)(?:\/(products|shipments|shipping_addresses))?$/.exec(
        rest,
      );
      if (match) {
        const order = findOrder(Number(match[1]));
        if (!order) return v2Error(404, 'The requested resource was not found.');
        if (match[2] === 'products')
          return list(order.products.map((p) => ({ ...p, order_id: order.id })));
        if (match[2] === 'shipping_addresses')
          return list(order.shippingAddresses.map((a) => ({ ...a, order_id: order.id })));
        if (match[2] === 'shipments')
          return list(
            order.shipments.map((s) => ({
              ...s,
              order_id: order.id,
              billing_address: order.billing_address,
              shipping_address:
                order.shippingAddresses.find((a) => a.id === s.order_address_id) ?? null,
            })),
          );
        return { status: 200, body: orderView(order) };
      }
      if (rest === '/v3/hooks')
        return {
          status: 200,
          body: { data: hooks.map(hookView), meta: { pagination: { total: hooks.length } } },
        };
      return v2Error(404, 'The requested resource was not found.');
    }),
  );

  const listOrders = (req: FakeRequest): FakeResponse => {
    const q = req.query;
    const pageSize = Number(q.get('limit') ?? 50);
    const page = Number(q.get('page') ?? 1);
    if (
      !Number.isInteger(pageSize) ||
      pageSize < 1 ||
      pageSize > MAX_LIMIT ||
      !Number.isInteger(page) ||
      page < 1
    )
      return v2Error(400, 'The filter(s): limit, page are invalid.');
    const minModified = q.get('min_date_modified');
    const maxModified = q.get('max_date_modified');
    const minId = q.get('min_id');
    // Dates in RFC 2822 or ISO 8601, bounds inclusive, to the second.
    const modified = (o: BigCommerceFakeOrder) => Date.parse(o.date_modified);
    let matching = orders.filter(
      (o) =>
        (minModified === null || modified(o) >= Date.parse(minModified)) &&
        (maxModified === null || modified(o) <= Date.parse(maxModified)) &&
        (minId === null || o.id >= Number(minId)),
    );
    const [field, direction] = (q.get('sort') ?? 'id:asc').split(':');
    const sign = direction === 'desc' ? -1 : 1;
    const key = (o: BigCommerceFakeOrder) => (field === 'date_modified' ? modified(o) : o.id);
    matching = [...matching].sort((a, b) => sign * (key(a) - key(b)) || a.id - b.id);
    return list(matching.slice((page - 1) * pageSize, page * pageSize).map(orderView));
  };

  server.onPrefix(
    'PUT',
    '/stores/',
    handle((req, rest) => {
      const orderMatch = /^\/v2\/orders\/(\d+)$/.exec(rest);
      if (orderMatch) {
        const order = findOrder(Number(orderMatch[1]));
        if (!order) return v2Error(404, 'The requested resource was not found.');
        const statusId = (req.body as { status_id?: unknown } | undefined)?.status_id;
        if (
          typeof statusId !== 'number' ||
          !Number.isInteger(statusId) ||
          statusId < 0 ||
          statusId > 14
        )
          return v2Error(400, 'The field status_id is invalid.');
        statusUpdates.push({ orderId: order.id, body: req.body });
        order.status_id = statusId;
        order.status = STATUSES[statusId] ?? `Status ${statusId}`;
        touch(order);
        return { status: 200, body: orderView(order) };
      }
      const hookMatch = /^\/v3\/hooks\/(\d+)$/.exec(rest);
      const hook = hookMatch ? hooks.find((h) => h.id === Number(hookMatch[1])) : undefined;
      if (!hook) return v3Error(404, 'Not Found');
      const body = (req.body ?? {}) as Partial<BigCommerceFakeHook>;
      if (typeof body.is_active === 'boolean') hook.is_active = body.is_active;
      if (body.headers && typeof body.headers === 'object') hook.headers = body.headers;
      return { status: 200, body: { data: hookView(hook), meta: {} } };
    }),
  );

  server.onPrefix(
    'POST',
    '/stores/',
    handle((req, rest) => {
      if (rest !== '/v3/hooks') return v2Error(404, 'The requested resource was not found.');
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (typeof body.scope !== 'string' || !/^store\/[a-z/]+$/.test(body.scope))
        return v3Error(422, 'The scope is invalid.');
      let destination: URL;
      try {
        destination = new URL(String(body.destination));
      } catch {
        return v3Error(422, 'The destination is invalid.');
      }
      // BigCommerce delivers to https on port 443 only; the fake also takes loopback http.
      const loopback = ['127.0.0.1', 'localhost'].includes(destination.hostname);
      if (
        !loopback &&
        (destination.protocol !== 'https:' ||
          (destination.port !== '' && destination.port !== '443'))
      )
        return v3Error(422, 'The destination must be https on port 443.');
      const hook: BigCommerceFakeHook = {
        id: sequence++,
        scope: body.scope,
        destination: destination.href,
        is_active: body.is_active !== false,
        headers: (body.headers as Record<string, string> | undefined) ?? {},
      };
      hooks.push(hook);
      return { status: 200, body: { data: hookView(hook), meta: {} } };
    }),
  );

  const hookView = (h: BigCommerceFakeHook) => ({
    ...h,
    client_id: 'fake-client',
    store_hash: storeHash,
    created_at: 1561482670,
    updated_at: 1561482670,
  });

  const post = async (hookId: number, data: Record<string, unknown>): Promise<number> => {
    const hook = hooks.find((h) => h.id === hookId);
    if (!hook) throw new Error(`no hook ${hookId}`);
    const d = delivery(hookId, data);
    const response = await fetch(hook.destination, {
      method: 'POST',
      headers: d.headers,
      body: d.body,
    });
    await response.text();
    return response.status;
  };

  const delivery: BigCommerceFake['delivery'] = (hookId, data, opts = {}) => {
    const hook = hooks.find((h) => h.id === hookId);
    if (!hook) throw new Error(`no hook ${hookId}`);
    const payload = {
      scope: hook.scope,
      store_id: '1025646',
      data,
      hash: createHash('sha1')
        .update(JSON.stringify({ scope: hook.scope, data }))
        .digest('hex'),
      created_at: Math.floor((opts.createdAt ?? now()) / 1000),
      producer: `stores/${storeHash}`,
    };
    return {
      headers: { 'Content-Type': 'application/json', ...hook.headers, ...opts.headers },
      body: JSON.stringify(payload),
    };
  };

  return {
    server,
    baseUrl: server.baseUrl,
    storeUrl: `${server.baseUrl}/stores/${storeHash}`,
    storeHash,
    accessToken,
    orders,
    hooks,
    statusUpdates,
    get limited() {
      return limited;
    },
    order: findOrder,
    changeOrder: (id, change) => {
      const order = findOrder(id);
      if (!order) throw new Error(`no order ${id}`);
      change(order);
      touch(order);
      return order;
    },
    setTrackingNumber: (orderId, shipmentIndex, number) => {
      const order = findOrder(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      order.shipments[shipmentIndex].tracking_number = number;
      touch(order);
    },
    addOrder,
    down: server.down,
    delivery,
    deliver: (hookId, data) => post(hookId, data),
    notifyHooks: async (scope, data) => {
      const statuses: number[] = [];
      for (const hook of hooks.filter((h) => h.scope === scope && h.is_active))
        statuses.push(await post(hook.id, data));
      return statuses;
    },
    close: () => server.close(),
  };
}

function v2Error(status: number, message: string): FakeResponse {
  return { status, body: [{ status, message }] };
}

function v3Error(status: number, title: string): FakeResponse {
  return {
    status,
    body: {
      status,
      title,
      type: 'https://developer.bigcommerce.com/api-docs/getting-started/api-status-codes',
    },
  };
}
