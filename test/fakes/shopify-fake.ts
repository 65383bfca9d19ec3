import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  startFakeProviderServer,
  type FakeProviderServer,
  type FakeRequest,
  type FakeResponse,
  type FakeOutage,
} from './fake-provider-server';
import {
  actualCost,
  argValues,
  connection,
  GqlSyntaxError,
  parseGraphql,
  project,
  requestedCost,
  type GqlDocument,
} from './graphql-mini';
import {
  generateSeedOrders,
  isoSeconds,
  type SeedOptions,
  type SeedOrder,
} from './store-order-generator';

/**
 * The Shopify Admin GraphQL API on loopback (storefront-apis.md, "Shopify"):
 * `POST /admin/api/{YYYY-MM}/graphql.json` with X-Shopify-Access-Token (401 otherwise), the
 * client-credentials token exchange at `/admin/oauth/access_token` (tokens expire), the orders
 * connection (`first`, `after`, `query: "updated_at:>='…'"`, `sortKey: UPDATED_AT`) with line
 * items, customer, addresses and fulfillments (tracking info, fulfillment line items, events),
 * `order(id)`, `fulfillment(id)`, `webhookSubscriptions`, and the mutations
 * `webhookSubscriptionCreate`, `fulfillmentEventCreate`, `fulfillmentTrackingInfoUpdate`
 * (recorded). Every answer carries `extensions.cost`: the calculated cost (graphql-mini.ts) is
 * charged to a leaky bucket per shop; a query the bucket cannot pay answers HTTP 200 with a
 * THROTTLED error, one above the single-query limit MAX_COST_EXCEEDED. Webhooks are sent
 * signed (X-Shopify-Hmac-SHA256 with the app's client secret) on demand.
 */
export interface ShopifyBucket {
  maximumAvailable: number;
  restoreRate: number;
}

/** Standard plan: 100 points restored per second [official]; a 1 000-point bucket. */
export const SHOPIFY_STANDARD_BUCKET: ShopifyBucket = { maximumAvailable: 1000, restoreRate: 100 };
/** Requested cost above which a query is refused outright [official: single query limit]. */
export const SHOPIFY_SINGLE_QUERY_LIMIT = 1000;
const MAX_PAGE = 250;

export const SHOPIFY_WEBHOOK_TOPICS = [
  'ORDERS_CREATE',
  'ORDERS_UPDATED',
  'ORDERS_FULFILLED',
  'FULFILLMENTS_CREATE',
  'FULFILLMENTS_UPDATE',
  'APP_UNINSTALLED',
] as const;

const EVENT_STATUSES = new Set([
  'ATTEMPTED_DELIVERY',
  'CARRIER_PICKED_UP',
  'CONFIRMED',
  'DELAYED',
  'DELIVERED',
  'FAILURE',
  'IN_TRANSIT',
  'LABEL_PRINTED',
  'LABEL_PURCHASED',
  'OUT_FOR_DELIVERY',
  'READY_FOR_PICKUP',
]);

export interface ShopifyFakeAddress {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  country: string | null;
  countryCodeV2: string | null;
  phone: string | null;
}

export interface ShopifyFakeEvent {
  id: number;
  status: string;
  happenedAt: string;
  estimatedDeliveryAt: string | null;
  message: string | null;
  city: string | null;
  province: string | null;
  country: string | null;
  zip: string | null;
}

export interface ShopifyFakeFulfillment {
  id: number;
  status: string;
  createdAt: string;
  updatedAt: string;
  estimatedDeliveryAt: string | null;
  trackingInfo: Array<{ company: string | null; number: string; url: string | null }>;
  lines: Array<{ id: number; lineItemId: number; quantity: number }>;
  events: ShopifyFakeEvent[];
}

export interface ShopifyFakeOrder {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  closed: boolean;
  currencyCode: string;
  subtotal: string;
  total: string;
  customer: {
    id: number;
    email: string | null;
    phone: string | null;
    firstName: string;
    lastName: string;
  };
  shippingAddress: ShopifyFakeAddress | null;
  billingAddress: ShopifyFakeAddress | null;
  lineItems: Array<{
    id: number;
    name: string;
    sku: string | null;
    quantity: number;
    price: string;
    variantId: number;
    productId: number;
    variantTitle: string | null;
    imageUrl: string | null;
  }>;
  fulfillments: ShopifyFakeFulfillment[];
}

export interface ShopifyFakeMutation {
  name: string;
  variables: Record<string, unknown>;
  args: Record<string, unknown>;
}

export interface ShopifyFakeOptions {
  /** Seeded orders (store-order-generator.ts); none by default. */
  orders?: SeedOptions;
  /** null: no bucket at all (answers still report a cost). Default: the Standard plan's. */
  bucket?: ShopifyBucket | null;
  accessToken?: string;
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of client-credentials tokens; default 24 h (less one second). */
  tokenLifetimeSeconds?: number;
  /**
   * The shop's domain in webhooks and the `shop` query; a function gets the fake's own
   * `127.0.0.1:{port}`, for a service that calls the shop at its domain (an allow-listed host).
   */
  shopDomain?: string | ((host: string) => string);
  /** Epoch ms; the bucket and `updatedAt` of changes follow it. Default Date.now. */
  now?: () => number;
  /** Requested cost above which a query is refused; default Shopify's 1 000. */
  singleQueryLimit?: number;
}

export interface ShopifyFake {
  readonly server: FakeProviderServer;
  readonly baseUrl: string;
  readonly shopDomain: string;
  readonly accessToken: string;
  readonly clientId: string;
  /** The app's client secret: it signs webhooks. */
  readonly clientSecret: string;
  readonly orders: ShopifyFakeOrder[];
  readonly mutations: ShopifyFakeMutation[];
  readonly subscriptions: Array<{ id: number; topic: string; uri: string }>;
  /** Versions the client asked for (`/admin/api/{version}/graphql.json`). */
  readonly versionsUsed: Set<string>;
  /** Queries answered (throttled ones included) with their requested and actual costs. */
  readonly costs: Array<{
    root: string;
    requested: number;
    actual: number | null;
    throttled: boolean;
  }>;
  order(id: number): ShopifyFakeOrder | undefined;
  /** Changes an order as the merchant would; its `updatedAt` becomes now. */
  changeOrder(id: number, change: (order: ShopifyFakeOrder) => void): ShopifyFakeOrder;
  /** The merchant corrects a fulfillment's tracking number. */
  setTrackingNumber(fulfillmentId: number, number: string): void;
  /** Adds an order built from a seed order (e.g. generateSeedOrders with another seed). */
  addOrder(seed: SeedOrder): ShopifyFakeOrder;
  /** Points available in the bucket now (refilled to `now`). */
  bucketAvailable(): number;
  /** Empties the bucket (the next query is throttled until it refills). */
  drainBucket(): void;
  /**
   * Every later request answers 503 (`http503`), has its connection dropped (`reset`) or
   * finds nobody listening (`refused`); false: back to normal.
   */
  down(mode: FakeOutage): Promise<void>;
  /** The next request answers 429 with Retry-After. */
  rateLimitNext(retryAfterSeconds?: number): void;
  /** Issued tokens and the static token stop working (401). */
  revokeTokens(): void;
  /** A webhook delivery as Shopify sends it: REST-shaped body, signed headers. */
  signedWebhook(
    topic: string,
    orderId: number,
    options?: { secret?: string; webhookId?: string },
  ): { headers: Record<string, string>; body: string };
  /**
   * Delivers a topic (`orders/updated`) about an order to every subscription of it, as Shopify
   * does after a change; answers the receivers' statuses.
   */
  notifySubscribers(topic: string, orderId: number): Promise<number[]>;
  /** Sends `signedWebhook` to a URL; answers the receiver's status. */
  deliverWebhook(
    url: string,
    webhook: { headers: Record<string, string>; body: string },
  ): Promise<number>;
  close(): Promise<void>;
}

export async function startShopifyFake(options: ShopifyFakeOptions = {}): Promise<ShopifyFake> {
  const server = await startFakeProviderServer();
  const now = options.now ?? Date.now;
  const shopDomain =
    typeof options.shopDomain === 'function'
      ? options.shopDomain(new URL(server.baseUrl).host)
      : (options.shopDomain ?? 'fake-shop.myshopify.com');
  let accessToken = options.accessToken ?? `shpat_${randomBytes(16).toString('hex')}`;
  const clientId = options.clientId ?? randomBytes(16).toString('hex');
  const clientSecret = options.clientSecret ?? `shpss_${randomBytes(16).toString('hex')}`;
  const tokenLifetime = options.tokenLifetimeSeconds ?? 86_399;
  const singleQueryLimit = options.singleQueryLimit ?? SHOPIFY_SINGLE_QUERY_LIMIT;
  const issued = new Map<string, number>();
  const bucketConfig = options.bucket === undefined ? SHOPIFY_STANDARD_BUCKET : options.bucket;
  const bucket = { available: bucketConfig?.maximumAvailable ?? 0, at: now() };
  const orders: ShopifyFakeOrder[] = [];
  const mutations: ShopifyFakeMutation[] = [];
  const subscriptions: Array<{ id: number; topic: string; uri: string }> = [];
  const versionsUsed = new Set<string>();
  const costs: ShopifyFake['costs'] = [];
  let sequence = 1;
  let sorted: ShopifyFakeOrder[] | null = null;

  const refill = (): number => {
    if (!bucketConfig) return Number.POSITIVE_INFINITY;
    const at = now();
    bucket.available = Math.min(
      bucketConfig.maximumAvailable,
      bucket.available + ((at - bucket.at) / 1000) * bucketConfig.restoreRate,
    );
    bucket.at = at;
    return bucket.available;
  };
  const throttleStatus = () =>
    bucketConfig
      ? {
          maximumAvailable: bucketConfig.maximumAvailable,
          currentlyAvailable: Math.floor(bucket.available),
          restoreRate: bucketConfig.restoreRate,
        }
      : { maximumAvailable: 1e9, currentlyAvailable: 1e9, restoreRate: 1e9 };

  const addOrder = (seed: SeedOrder): ShopifyFakeOrder => {
    const id = 5_000_000 + orders.length + 1;
    const address: ShopifyFakeAddress = {
      firstName: seed.address.firstName,
      lastName: seed.address.lastName,
      company: seed.address.company,
      address1: seed.address.line1,
      address2: seed.address.line2,
      city: seed.address.city,
      province: seed.address.state,
      provinceCode: seed.address.state.length === 2 ? seed.address.state : null,
      zip: seed.address.postcode,
      country: seed.address.country,
      countryCodeV2: seed.address.countryIso2,
      phone: seed.address.phone,
    };
    const lineItems = seed.lines.map((line) => ({
      id: id * 10 + line.index,
      name: line.name,
      sku: line.sku,
      quantity: line.qty,
      price: line.price,
      variantId: 40_000 + line.index,
      productId: 30_000 + line.index,
      variantTitle: line.options.Size ?? null,
      imageUrl: `https://cdn.shopify.example/${line.sku.toLowerCase()}.png`,
    }));
    const order: ShopifyFakeOrder = {
      id,
      name: `#${seed.number}`,
      email: seed.email,
      phone: seed.address.phone,
      createdAt: isoSeconds(seed.createdAt),
      updatedAt: isoSeconds(seed.updatedAt),
      cancelledAt: null,
      closed: false,
      currencyCode: seed.currency,
      subtotal: seed.subtotal,
      total: seed.total,
      customer: {
        id: 600_000 + seed.index,
        email: seed.email,
        phone: seed.address.phone,
        firstName: seed.address.firstName,
        lastName: seed.address.lastName,
      },
      shippingAddress: address,
      billingAddress: { ...address },
      lineItems,
      fulfillments: seed.fulfillments.map((f) => ({
        id: id * 10 + f.index,
        status: 'SUCCESS',
        createdAt: isoSeconds(f.createdAt),
        updatedAt: isoSeconds(seed.updatedAt),
        estimatedDeliveryAt: null,
        trackingInfo: [{ company: f.carrierName, number: f.trackingNumber, url: null }],
        lines: f.lines.map((l) => ({
          id: (id * 10 + f.index) * 10 + l.lineIndex,
          lineItemId: lineItems[l.lineIndex].id,
          quantity: l.qty,
        })),
        events: [],
      })),
    };
    orders.push(order);
    sorted = null;
    return order;
  };
  for (const seed of options.orders ? generateSeedOrders(options.orders) : []) addOrder(seed);

  const findOrder = (id: number) => orders.find((o) => o.id === id);
  const findFulfillment = (id: number) => {
    for (const order of orders) {
      const fulfillment = order.fulfillments.find((f) => f.id === id);
      if (fulfillment) return { order, fulfillment };
    }
    return undefined;
  };
  const touch = (order: ShopifyFakeOrder) => {
    order.updatedAt = isoSeconds(new Date(now()));
    sorted = null;
  };

  // ---- GraphQL views of the data (fields with arguments are functions of them) ----
  const gid = (type: string, id: number) => `gid://shopify/${type}/${id}`;
  const money = (amount: string, currencyCode: string) => ({
    shopMoney: { amount, currencyCode },
    presentmentMoney: { amount, currencyCode },
  });
  const fulfillmentView = (order: ShopifyFakeOrder, f: ShopifyFakeFulfillment) => ({
    __typename: 'Fulfillment',
    id: gid('Fulfillment', f.id),
    legacyResourceId: String(f.id),
    name: `${order.name}-F${order.fulfillments.indexOf(f) + 1}`,
    status: f.status,
    displayStatus: f.events.length ? f.events[f.events.length - 1].status : 'FULFILLED',
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    estimatedDeliveryAt: f.estimatedDeliveryAt,
    inTransitAt: null,
    deliveredAt: f.events.find((e) => e.status === 'DELIVERED')?.happenedAt ?? null,
    order: () => orderView(order),
    trackingInfo: (args: Record<string, unknown>) =>
      f.trackingInfo.slice(0, typeof args.first === 'number' ? args.first : undefined),
    fulfillmentLineItems: (args: Record<string, unknown>) =>
      connection(
        f.lines.map((l) => ({
          id: gid('FulfillmentLineItem', l.id),
          quantity: l.quantity,
          lineItem: { id: gid('LineItem', l.lineItemId) },
        })),
        args,
        (n) => Buffer.from(n.id).toString('base64'),
      ),
    events: (args: Record<string, unknown>) =>
      connection(
        f.events.map((e) => ({ ...e, id: gid('FulfillmentEvent', e.id) })),
        args,
        (n) => Buffer.from(n.id).toString('base64'),
      ),
  });
  const orderView = (order: ShopifyFakeOrder) => ({
    __typename: 'Order',
    id: gid('Order', order.id),
    legacyResourceId: String(order.id),
    name: order.name,
    email: order.email,
    phone: order.phone,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    cancelledAt: order.cancelledAt,
    closed: order.closed,
    currencyCode: order.currencyCode,
    displayFinancialStatus: 'PAID',
    displayFulfillmentStatus: fulfillmentStatus(order),
    subtotalPriceSet: money(order.subtotal, order.currencyCode),
    totalPriceSet: money(order.total, order.currencyCode),
    customer: { ...order.customer, id: gid('Customer', order.customer.id) },
    shippingAddress: order.shippingAddress,
    billingAddress: order.billingAddress,
    lineItems: (args: Record<string, unknown>) =>
      connection(
        order.lineItems.map((l) => ({
          id: gid('LineItem', l.id),
          name: l.name,
          title: l.name,
          sku: l.sku,
          quantity: l.quantity,
          variantTitle: l.variantTitle,
          originalUnitPriceSet: money(l.price, order.currencyCode),
          variant: { id: gid('ProductVariant', l.variantId), title: l.variantTitle },
          product: { id: gid('Product', l.productId) },
          image: l.imageUrl ? { url: l.imageUrl } : null,
        })),
        args,
        (n) => Buffer.from(n.id).toString('base64'),
      ),
    fulfillments: (args: Record<string, unknown>) =>
      order.fulfillments
        .slice(0, typeof args.first === 'number' ? args.first : undefined)
        .map((f) => fulfillmentView(order, f)),
  });

  const byUpdated = (): ShopifyFakeOrder[] =>
    (sorted ??= [...orders].sort(
      (a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt) || a.id - b.id,
    ));
  const ordersConnection = (args: Record<string, unknown>) => {
    const first = typeof args.first === 'number' ? args.first : null;
    if (first === null || first < 1 || first > MAX_PAGE)
      throw new GraphqlError(
        `The first argument must be between 1 and ${MAX_PAGE}.`,
        'ARGUMENT_LIMIT_EXCEEDED',
      );
    const byUpdatedAt = args.sortKey === 'UPDATED_AT';
    const list = byUpdatedAt ? byUpdated() : [...orders].sort((a, b) => a.id - b.id);
    const filters = parseSearch(typeof args.query === 'string' ? args.query : '');
    const key = (o: ShopifyFakeOrder): [number, number] => [
      byUpdatedAt ? Date.parse(o.updatedAt) : 0,
      o.id,
    ];
    const after = typeof args.after === 'string' ? decodeCursor(args.after) : null;
    const matching: ShopifyFakeOrder[] = [];
    let more = false;
    for (const order of list) {
      if (!filters.every((f) => f(order))) continue;
      if (after) {
        const [t, id] = key(order);
        if (t < after[0] || (t === after[0] && id <= after[1])) continue;
      }
      if (matching.length === first) {
        more = true;
        break;
      }
      matching.push(order);
    }
    const cursor = (o: ShopifyFakeOrder) => Buffer.from(JSON.stringify(key(o))).toString('base64');
    const nodes = matching.map(orderView);
    return {
      nodes,
      edges: nodes.map((node, i) => ({ node, cursor: cursor(matching[i]) })),
      pageInfo: {
        hasNextPage: more,
        hasPreviousPage: after !== null,
        startCursor: matching.length ? cursor(matching[0]) : null,
        endCursor: matching.length ? cursor(matching[matching.length - 1]) : null,
      },
    };
  };

  const queryRoot: Record<string, (args: Record<string, unknown>) => unknown> = {
    orders: ordersConnection,
    order: (args) => {
      const order = findOrder(legacyId(args.id, 'Order'));
      return order ? orderView(order) : null;
    },
    fulfillment: (args) => {
      const found = findFulfillment(legacyId(args.id, 'Fulfillment'));
      return found ? fulfillmentView(found.order, found.fulfillment) : null;
    },
    webhookSubscriptions: (args) =>
      connection(
        subscriptions.map((s) => ({
          id: gid('WebhookSubscription', s.id),
          topic: s.topic,
          uri: s.uri,
          format: 'JSON',
          endpoint: { __typename: 'WebhookHttpEndpoint', callbackUrl: s.uri },
        })),
        args,
        (n) => Buffer.from(n.id).toString('base64'),
      ),
    shop: () => ({ name: 'Fake shop', myshopifyDomain: shopDomain }),
  };

  const record = (
    name: string,
    args: Record<string, unknown>,
    variables: Record<string, unknown>,
  ) => mutations.push({ name, args, variables });
  const mutationRoot: Record<string, (args: Record<string, unknown>) => unknown> = {
    webhookSubscriptionCreate: (args) => {
      const input = (args.webhookSubscription ?? {}) as Record<string, unknown>;
      const uri = typeof input.uri === 'string' ? input.uri : input.callbackUrl;
      const topic = String(args.topic);
      if (!(SHOPIFY_WEBHOOK_TOPICS as readonly string[]).includes(topic))
        return {
          webhookSubscription: null,
          userErrors: [{ field: ['topic'], message: 'Topic is invalid' }],
        };
      if (typeof uri !== 'string' || !/^https?:\/\//.test(uri))
        return {
          webhookSubscription: null,
          userErrors: [{ field: ['webhookSubscription', 'uri'], message: 'Address is invalid' }],
        };
      if (subscriptions.some((s) => s.topic === topic && s.uri === uri))
        return {
          webhookSubscription: null,
          userErrors: [
            {
              field: ['webhookSubscription', 'uri'],
              message: 'Address for this topic has already been taken',
            },
          ],
        };
      const subscription = { id: sequence++, topic, uri };
      subscriptions.push(subscription);
      return {
        webhookSubscription: {
          id: gid('WebhookSubscription', subscription.id),
          topic,
          uri,
          format: 'JSON',
        },
        userErrors: [],
      };
    },
    fulfillmentEventCreate: (args) => {
      const input = (args.fulfillmentEvent ?? {}) as Record<string, unknown>;
      const found = findFulfillment(legacyId(input.fulfillmentId, 'Fulfillment'));
      if (!found)
        return {
          fulfillmentEvent: null,
          userErrors: [
            {
              field: ['fulfillmentEvent', 'fulfillmentId'],
              message: 'Fulfillment does not exist.',
            },
          ],
        };
      if (!EVENT_STATUSES.has(String(input.status)))
        throw new GraphqlError(
          `Variable $fulfillmentEvent of type FulfillmentEventInput! was provided invalid value for status`,
          'INVALID_VARIABLE',
        );
      const event: ShopifyFakeEvent = {
        id: sequence++,
        status: String(input.status),
        happenedAt:
          typeof input.happenedAt === 'string' ? input.happenedAt : new Date(now()).toISOString(),
        estimatedDeliveryAt:
          typeof input.estimatedDeliveryAt === 'string' ? input.estimatedDeliveryAt : null,
        message: typeof input.message === 'string' ? input.message : null,
        city: typeof input.city === 'string' ? input.city : null,
        province: typeof input.province === 'string' ? input.province : null,
        country: typeof input.country === 'string' ? input.country : null,
        zip: typeof input.zip === 'string' ? input.zip : null,
      };
      found.fulfillment.events.push(event);
      if (event.estimatedDeliveryAt)
        found.fulfillment.estimatedDeliveryAt = event.estimatedDeliveryAt;
      return {
        fulfillmentEvent: { ...event, id: gid('FulfillmentEvent', event.id) },
        userErrors: [],
      };
    },
    fulfillmentTrackingInfoUpdate: (args) => {
      const found = findFulfillment(legacyId(args.fulfillmentId, 'Fulfillment'));
      if (!found)
        return {
          fulfillment: null,
          userErrors: [{ field: ['fulfillmentId'], message: 'Fulfillment does not exist.' }],
        };
      const input = (args.trackingInfoInput ?? {}) as Record<string, unknown>;
      const numbers = Array.isArray(input.numbers)
        ? input.numbers.map(String)
        : [String(input.number ?? '')];
      found.fulfillment.trackingInfo = numbers.map((number) => ({
        company: typeof input.company === 'string' ? input.company : null,
        number,
        url: typeof input.url === 'string' ? input.url : null,
      }));
      touch(found.order);
      return { fulfillment: fulfillmentView(found.order, found.fulfillment), userErrors: [] };
    },
  };

  const execute = (document: GqlDocument, variables: Record<string, unknown>) => {
    const root = document.operation === 'mutation' ? mutationRoot : queryRoot;
    const data: Record<string, unknown> = {};
    for (const field of document.selections) {
      const resolve = root[field.name];
      if (!resolve)
        throw new GraphqlError(
          `Field '${field.name}' doesn't exist on type '${document.operation === 'mutation' ? 'Mutation' : 'QueryRoot'}'`,
          'undefinedField',
        );
      const args = argValues(field, variables);
      if (document.operation === 'mutation') record(field.name, args, variables);
      data[field.alias ?? field.name] = project(resolve(args), field.selections, variables);
    }
    return data;
  };

  const authorized = (req: FakeRequest): boolean => {
    const token = header(req, 'x-shopify-access-token');
    if (!token) return false;
    if (token === accessToken) return true;
    const expiresAt = issued.get(token);
    return expiresAt !== undefined && expiresAt > now();
  };

  const graphql = (req: FakeRequest): FakeResponse => {
    const outage = server.outageAnswer('Service Unavailable');
    if (outage) return outage;
    const version = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(req.path)?.[1];
    if (!version || !/^\d{4}-(01|04|07|10)$/.test(version))
      return { status: 404, body: { errors: 'Not Found' } };
    versionsUsed.add(version);
    if (!authorized(req))
      return {
        status: 401,
        body: {
          errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
        },
      };
    const body = req.body as { query?: unknown; variables?: unknown } | undefined;
    if (!body || typeof body.query !== 'string')
      return { status: 400, body: { errors: { query: 'Required parameter missing or invalid' } } };
    const variables = (body.variables ?? {}) as Record<string, unknown>;
    let document: GqlDocument;
    try {
      document = parseGraphql(body.query);
    } catch (error) {
      if (error instanceof GqlSyntaxError)
        return gqlErrors([{ message: `Parse error: ${error.message}` }]);
      throw error;
    }
    const requested = requestedCost(document, variables);
    const root = document.selections.map((f) => f.name).join(',');
    const available = refill();
    if (requested > singleQueryLimit) {
      costs.push({ root, requested, actual: null, throttled: false });
      return gqlErrors(
        [
          {
            message: `Query cost is ${requested}, which exceeds the single query max cost limit (${singleQueryLimit}).`,
            extensions: {
              code: 'MAX_COST_EXCEEDED',
              cost: requested,
              maxCost: singleQueryLimit,
            },
          },
        ],
        { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus() },
      );
    }
    if (requested > available) {
      costs.push({ root, requested, actual: null, throttled: true });
      return gqlErrors(
        [
          {
            message: 'Throttled',
            extensions: {
              code: 'THROTTLED',
              documentation: 'https://shopify.dev/api/usage/rate-limits',
            },
          },
        ],
        { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus() },
      );
    }
    if (bucketConfig) bucket.available -= requested;
    let data: Record<string, unknown>;
    try {
      data = execute(document, variables);
    } catch (error) {
      if (bucketConfig) bucket.available += requested;
      if (error instanceof GraphqlError)
        return gqlErrors([{ message: error.message, extensions: { code: error.code } }]);
      throw error;
    }
    const actual = actualCost(document, data);
    if (bucketConfig)
      bucket.available = Math.min(
        bucketConfig.maximumAvailable,
        bucket.available + requested - actual,
      );
    costs.push({ root, requested, actual, throttled: false });
    return {
      status: 200,
      body: {
        data,
        extensions: {
          cost: {
            requestedQueryCost: requested,
            actualQueryCost: actual,
            throttleStatus: throttleStatus(),
          },
        },
      },
    };
  };
  server.onPrefix('POST', '/admin/api/', graphql);

  server.on('POST', '/admin/oauth/access_token', (req) => {
    const outage = server.outageAnswer('Service Unavailable');
    if (outage) return outage;
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body.grant_type !== 'client_credentials')
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    if (body.client_id !== clientId || body.client_secret !== clientSecret)
      return {
        status: 400,
        body: { error: 'invalid_client', error_description: 'Client credentials are invalid' },
      };
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    issued.set(token, now() + tokenLifetime * 1000);
    return {
      status: 200,
      body: {
        access_token: token,
        scope: 'read_orders,write_fulfillments',
        expires_in: tokenLifetime,
      },
    };
  });

  const restOrder = (order: ShopifyFakeOrder) => ({
    id: order.id,
    admin_graphql_api_id: gid('Order', order.id),
    name: order.name,
    email: order.email,
    updated_at: order.updatedAt,
    created_at: order.createdAt,
    currency: order.currencyCode,
    total_price: order.total,
    fulfillments: order.fulfillments.map((f) => restFulfillment(order, f)),
  });
  const restFulfillment = (order: ShopifyFakeOrder, f: ShopifyFakeFulfillment) => ({
    id: f.id,
    admin_graphql_api_id: gid('Fulfillment', f.id),
    order_id: order.id,
    status: 'success',
    tracking_company: f.trackingInfo[0]?.company ?? null,
    tracking_number: f.trackingInfo[0]?.number ?? null,
    tracking_numbers: f.trackingInfo.map((t) => t.number),
    updated_at: f.updatedAt,
  });

  const signedWebhook: ShopifyFake['signedWebhook'] = (topic, orderId, opts = {}) => {
    const order = findOrder(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    const payload = topic.startsWith('fulfillments/')
      ? restFulfillment(order, order.fulfillments[0])
      : topic.startsWith('orders/')
        ? restOrder(order)
        : { shop_id: 1, shop_domain: shopDomain, orders_requested: [order.id] };
    const body = JSON.stringify(payload);
    const signature = createHmac('sha256', opts.secret ?? clientSecret)
      .update(body)
      .digest('base64');
    return {
      headers: {
        'Content-Type': 'application/json',
        'X-Shopify-Topic': topic,
        'X-Shopify-Hmac-SHA256': signature,
        'X-Shopify-Shop-Domain': shopDomain,
        'X-Shopify-Webhook-Id': opts.webhookId ?? randomUUID(),
        'X-Shopify-Event-Id': randomUUID(),
        'X-Shopify-Triggered-At': new Date(now()).toISOString(),
        'X-Shopify-Api-Version': [...versionsUsed][0] ?? '2026-01',
      },
      body,
    };
  };

  return {
    server,
    baseUrl: server.baseUrl,
    shopDomain,
    get accessToken() {
      return accessToken;
    },
    clientId,
    clientSecret,
    orders,
    mutations,
    subscriptions,
    versionsUsed,
    costs,
    order: findOrder,
    changeOrder: (id, change) => {
      const order = findOrder(id);
      if (!order) throw new Error(`no order ${id}`);
      change(order);
      touch(order);
      return order;
    },
    setTrackingNumber: (fulfillmentId, number) => {
      const found = findFulfillment(fulfillmentId);
      if (!found) throw new Error(`no fulfillment ${fulfillmentId}`);
      found.fulfillment.trackingInfo = [{ ...found.fulfillment.trackingInfo[0], number }];
      found.fulfillment.updatedAt = isoSeconds(new Date(now()));
      touch(found.order);
    },
    addOrder,
    bucketAvailable: refill,
    drainBucket: () => {
      refill();
      bucket.available = 0;
    },
    down: server.down,
    rateLimitNext: (retryAfterSeconds = 1) =>
      server.failNext({
        status: 429,
        headers: { 'Retry-After': String(retryAfterSeconds) },
        body: {
          errors:
            'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.',
        },
      }),
    revokeTokens: () => {
      issued.clear();
      accessToken = `revoked_${randomBytes(8).toString('hex')}`;
    },
    signedWebhook,
    deliverWebhook: (url, webhook) => post(url, webhook),
    notifySubscribers: async (topic, orderId) => {
      const name = topic.toUpperCase().replace('/', '_');
      const statuses: number[] = [];
      for (const subscription of subscriptions.filter((x) => x.topic === name))
        statuses.push(await post(subscription.uri, signedWebhook(topic, orderId)));
      return statuses;
    },
    close: () => server.close(),
  };
}

async function post(
  url: string,
  webhook: { headers: Record<string, string>; body: string },
): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: webhook.headers,
    body: webhook.body,
  });
  await response.text();
  return response.status;
}

class GraphqlError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

function gqlErrors(errors: unknown[], cost?: unknown): FakeResponse {
  return { status: 200, body: { errors, ...(cost ? { extensions: { cost } } : {}) } };
}

function header(req: FakeRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `gid://shopify/Order/123` (or `123`) -> 123; NaN when it is another type. */
function legacyId(value: unknown, type: string): number {
  if (typeof value !== 'string' && typeof value !== 'number') return Number.NaN;
  const text = String(value);
  const match = new RegExp(`^gid://shopify/${type}/(\\d+)$`).exec(text);
  return match ? Number(match[1]) : /^\d+$/.test(text) ? Number(text) : Number.NaN;
}

function decodeCursor(cursor: string): [number, number] | null {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as unknown;
    return Array.isArray(value) && value.length === 2 ? [Number(value[0]), Number(value[1])] : null;
  } catch {
    return null;
  }
}

/** Shopify search syntax, the part the importer uses: `updated_at:>='2024-05-01T00:00:00Z'`. */
function parseSearch(query: string): Array<(order: ShopifyFakeOrder) => boolean> {
  const filters: Array<(order: ShopifyFakeOrder) => boolean> = [];
  for (const match of query.matchAll(/updated_at:(>=|<=|>|<)'?([^'\s]+)'?/g)) {
    const [, op, raw] = match;
    const at = Date.parse(raw);
    if (Number.isNaN(at)) continue;
    filters.push((order) => {
      const t = Date.parse(order.updatedAt);
      return op === '>=' ? t >= at : op === '>' ? t > at : op === '<=' ? t <= at : t < at;
    });
  }
  return filters;
}

function fulfillmentStatus(order: ShopifyFakeOrder): string {
  const ordered = order.lineItems.reduce((sum, l) => sum + l.quantity, 0);
  const shipped = order.fulfillments.reduce(
    (sum, f) => sum + f.lines.reduce((s, l) => s + l.quantity, 0),
    0,
  );
  return shipped === 0 ? 'UNFULFILLED' : shipped >= ordered ? 'FULFILLED' : 'PARTIALLY_FULFILLED';
}
