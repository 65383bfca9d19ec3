import {
  StoreAnswerInvalid,
  StoreCredentialsRejected,
  StoreRateLimited,
  StoreRequestFailed,
} from '../store-errors';
import type {
  ChangedOrdersQuery,
  ShopifyConnection,
  StoreClient,
  StoreOrder,
  StoreOrderPage,
  StorePushAction,
  StorePushResult,
  StoreWebhookSubscription,
} from '../store-platform';
import { urlUnder } from '../store-base-url';
import { StoreHttp, type StoreHttpDeps } from '../transport/store-http';
import { StoreTokenCache } from '../transport/store-token-cache';
import {
  SHOPIFY_API_VERSION,
  SHOPIFY_CLIENT_CREDENTIALS_TOKEN_SECONDS,
  SHOPIFY_SINGLE_QUERY_LIMIT,
  SHOPIFY_ERROR_CODES,
  SHOPIFY_ORDER_TOPICS,
  SHOPIFY_TOKEN_RENEW_BEFORE_MS,
  SHOPIFY_WEBHOOK_URI_FIELD,
} from './shopify-constants';
import { orderPageSize, readQueryCost, ShopifyCostBucket } from './shopify-cost';
import { legacyId, nodes, shopifyGid, shopifyStoreOrder, type ShopifyNode } from './shopify-order';
import {
  FULFILLMENT,
  FULFILLMENT_EVENT_CREATE,
  FULFILLMENT_EVENTS,
  NESTED,
  ORDER,
  ORDER_FULFILLMENT_IDS,
  ORDER_LINE_ITEMS,
  ORDERS_PAGE,
  WEBHOOK_SUBSCRIPTION_CREATE,
  WEBHOOK_SUBSCRIPTIONS,
} from './shopify-queries';

/** A query whose requested cost is above the single-query limit (the page was too large). */
class QueryTooCostly extends Error {
  constructor(
    readonly requested: number,
    /** The limit the answer named, when it did. */
    readonly maxCost: number | null,
  ) {
    super(`query cost ${requested} above the single-query limit`);
  }
}

/** THROTTLED answers in a row before a query gives up (each waits for the bucket). */
const MAX_THROTTLED_RETRIES = 20;
/** Wait after a THROTTLED answer that carries no bucket status. */
const THROTTLED_FALLBACK_MS = 1000;

/** Tokens of sessions that were given no shared cache. */
const PROCESS_TOKENS = new StoreTokenCache(SHOPIFY_TOKEN_RENEW_BEFORE_MS);

/**
 * One Shopify shop over the Admin GraphQL API (SHOPIFY_API_VERSION). Every query is paid from
 * the shop's cost bucket: the client keeps the bucket as the last answer reported it
 * (`extensions.cost`), waits before a query until the bucket holds its cost, and after a
 * THROTTLED answer waits as long as the restore rate needs; orders pages are sized from the
 * last page's cost (orderPageSize). Client id and secret are exchanged for a token, renewed
 * before it expires and once more when the shop refuses it.
 */
export class ShopifyClient implements StoreClient {
  readonly platform = 'shopify' as const;
  readonly http: StoreHttp;
  private readonly bucket = new ShopifyCostBucket();
  private readonly endpoint: URL;
  /** Requested cost of each operation last time, to wait for the bucket before sending it. */
  private readonly lastCost = new Map<string, number>();
  private lastPage: { first: number; requested: number } | null = null;
  private singleQueryLimit = SHOPIFY_SINGLE_QUERY_LIMIT;

  constructor(
    private readonly connection: ShopifyConnection,
    deps: StoreHttpDeps,
  ) {
    this.http = new StoreHttp('shopify', deps);
    this.endpoint = urlUnder(connection.baseUrl, `/admin/api/${SHOPIFY_API_VERSION}/graphql.json`);
  }

  async listChangedOrders(query: ChangedOrdersQuery): Promise<StoreOrderPage> {
    const after = typeof query.page?.after === 'string' ? query.page.after : null;
    const search = `updated_at:>='${query.since.toISOString().replace(/\.\d{3}Z$/, 'Z')}'`;
    for (let attempt = 0; ; attempt++) {
      const first = orderPageSize(this.lastPage, this.bucket.known, this.singleQueryLimit);
      const estimate = this.lastPage
        ? (this.lastPage.requested / this.lastPage.first) * first
        : undefined;
      let data: ShopifyNode;
      try {
        data = await this.query(
          'StoreSyncOrders',
          ORDERS_PAGE,
          { first, after, query: search },
          { estimate, adaptable: true },
        );
      } catch (error) {
        // The page cost more than one query may: learn the cost and ask for fewer orders.
        if (error instanceof QueryTooCostly) {
          if (error.maxCost !== null) this.singleQueryLimit = error.maxCost;
          if (attempt < 3 && first > 1) {
            this.lastPage = { first, requested: error.requested };
            continue;
          }
          throw new StoreRequestFailed('shopify', 'a page of one order costs more than allowed');
        }
        throw error;
      }
      const cost = this.lastCost.get('StoreSyncOrders');
      if (cost !== undefined) this.lastPage = { first, requested: cost };
      const connection = object(data.orders);
      if (!connection) throw new StoreAnswerInvalid('shopify', 'no orders in the answer');
      const orders: StoreOrder[] = [];
      for (const node of nodes(connection)) {
        const order = shopifyStoreOrder(await this.complete(node), this.adminUrl());
        if (order) orders.push(order);
      }
      const pageInfo = object(connection.pageInfo);
      const end = pageInfo?.endCursor;
      return {
        orders,
        next: pageInfo?.hasNextPage === true && typeof end === 'string' ? { after: end } : null,
      };
    }
  }

  async readOrder(orderId: string): Promise<StoreOrder | null> {
    const data = await this.query('StoreSyncOrder', ORDER, { id: shopifyGid('Order', orderId) });
    const node = object(data.order);
    return node ? shopifyStoreOrder(await this.complete(node), this.adminUrl()) : null;
  }

  async subscribeWebhooks(receiverUrl: string): Promise<StoreWebhookSubscription[]> {
    const existing = nodes(
      object(
        (await this.query('StoreSyncWebhooks', WEBHOOK_SUBSCRIPTIONS, {})).webhookSubscriptions,
      ),
    );
    const subscribed: StoreWebhookSubscription[] = [];
    for (const topic of SHOPIFY_ORDER_TOPICS) {
      const found = existing.find((s) => s.topic === topic && s.uri === receiverUrl);
      if (found) {
        subscribed.push({ id: String(found.id), topic });
        continue;
      }
      const data = await this.query(
        'StoreSyncSubscribe',
        WEBHOOK_SUBSCRIPTION_CREATE,
        {
          topic,
          webhookSubscription: { [SHOPIFY_WEBHOOK_URI_FIELD]: receiverUrl, format: 'JSON' },
        },
        { mutation: true },
      );
      const result = object(data.webhookSubscriptionCreate);
      const created = object(result?.webhookSubscription);
      if (created) {
        subscribed.push({ id: String(created.id), topic });
        continue;
      }
      const errors = Array.isArray(result?.userErrors) ? result.userErrors : [];
      // Subscribed meanwhile (another node, an earlier attempt): as good as created.
      if (errors.some((e) => /already been taken/i.test(String(object(e)?.message ?? ''))))
        subscribed.push({ id: '', topic });
      else throw new StoreRequestFailed('shopify', `the ${topic} webhook subscription was refused`);
    }
    return subscribed;
  }

  async push(action: StorePushAction): Promise<StorePushResult> {
    if (action.kind !== 'shopify.fulfillmentEvent')
      throw new Error(`not a Shopify push: ${action.kind}`);
    const id = shopifyGid('Fulfillment', action.fulfillmentId);
    const found = object(
      (await this.query('StoreSyncFulfillmentEvents', FULFILLMENT_EVENTS, { id })).fulfillment,
    );
    if (!found)
      throw new StoreRequestFailed('shopify', `fulfillment ${action.fulfillmentId} not found`, 404);
    // A retried push (or someone else) already put this status on the fulfillment.
    if (nodes(found.events).some((e) => e.status === action.status)) return { sent: false };
    const fulfillmentEvent: Record<string, unknown> = {
      fulfillmentId: id,
      status: action.status,
      happenedAt: action.happenedAt,
    };
    for (const key of [
      'estimatedDeliveryAt',
      'message',
      'city',
      'province',
      'country',
      'zip',
    ] as const) {
      if (action[key] !== null) fulfillmentEvent[key] = action[key];
    }
    const data = await this.query(
      'StoreSyncFulfillmentEvent',
      FULFILLMENT_EVENT_CREATE,
      { fulfillmentEvent },
      { mutation: true },
    );
    const result = object(data.fulfillmentEventCreate);
    if (!object(result?.fulfillmentEvent))
      throw new StoreRequestFailed('shopify', `the ${action.status} event was refused`);
    return { sent: true };
  }

  close(): void {
    this.http.close();
  }

  /** An order with what its first page of nested lists left out (big orders only). */
  private async complete(order: ShopifyNode): Promise<ShopifyNode> {
    const id = order.id;
    let lineItems = object(order.lineItems);
    if (object(lineItems?.pageInfo)?.hasNextPage === true) {
      const all = [...nodes(lineItems)];
      let after = object(lineItems?.pageInfo)?.endCursor;
      for (;;) {
        const more = object(
          object((await this.query('StoreSyncOrderLines', ORDER_LINE_ITEMS, { id, after })).order)
            ?.lineItems,
        );
        all.push(...nodes(more));
        after = object(more?.pageInfo)?.endCursor;
        if (object(more?.pageInfo)?.hasNextPage !== true || typeof after !== 'string') break;
      }
      lineItems = { nodes: all };
    }
    let fulfillments = Array.isArray(order.fulfillments) ? order.fulfillments.filter(isObject) : [];
    if (fulfillments.length >= NESTED.fulfillments) {
      const ids = (await this.query('StoreSyncFulfillmentIds', ORDER_FULFILLMENT_IDS, { id }))
        .order;
      const all = Array.isArray(object(ids)?.fulfillments)
        ? (object(ids)!.fulfillments as unknown[]).filter(isObject)
        : [];
      const known = new Map(fulfillments.map((f) => [f.id, f]));
      fulfillments = all.map((f) => known.get(f.id) ?? { id: f.id, missing: true });
    }
    const complete: ShopifyNode[] = [];
    for (const fulfillment of fulfillments) {
      const tracking = Array.isArray(fulfillment.trackingInfo) ? fulfillment.trackingInfo : [];
      const lines = object(fulfillment.fulfillmentLineItems);
      if (
        fulfillment.missing === true ||
        tracking.length >= NESTED.trackingInfo ||
        object(lines?.pageInfo)?.hasNextPage === true
      )
        complete.push(await this.readFulfillment(fulfillment.id));
      else complete.push(fulfillment);
    }
    return { ...order, lineItems, fulfillments: complete };
  }

  /** One fulfillment with all its tracking numbers and lines. */
  private async readFulfillment(id: unknown): Promise<ShopifyNode> {
    let after: unknown = null;
    let first: ShopifyNode | null = null;
    const lines: ShopifyNode[] = [];
    for (;;) {
      const found = object(
        (await this.query('StoreSyncFulfillment', FULFILLMENT, { id, after })).fulfillment,
      );
      if (!found)
        throw new StoreAnswerInvalid('shopify', `fulfillment ${legacyId(id) ?? '?'} vanished`);
      first ??= found;
      const page = object(found.fulfillmentLineItems);
      lines.push(...nodes(page));
      after = object(page?.pageInfo)?.endCursor;
      if (object(page?.pageInfo)?.hasNextPage !== true || typeof after !== 'string') break;
    }
    return { ...first, fulfillmentLineItems: { nodes: lines } };
  }

  /**
   * One GraphQL call paid from the bucket: waits until the bucket holds what this operation
   * cost last time, sends, reads `extensions.cost`, and on THROTTLED waits for the restore rate
   * to refill what is missing and sends again.
   */
  private async query(
    operation: string,
    document: string,
    variables: Record<string, unknown>,
    options: { mutation?: boolean; estimate?: number; adaptable?: boolean } = {},
  ): Promise<ShopifyNode> {
    let renewedToken = false;
    for (let throttled = 0; ;) {
      const estimate = options.estimate ?? this.lastCost.get(operation);
      if (estimate !== undefined)
        await this.http.wait(this.bucket.delayFor(estimate, this.http.clock.now()));
      const token = await this.token();
      let body: unknown;
      try {
        ({ body } = await this.http.request({
          method: 'POST',
          url: this.endpoint,
          headers: { 'X-Shopify-Access-Token': token },
          json: { query: document, variables },
          idempotent: !options.mutation,
        }));
      } catch (error) {
        // An exchanged token can lapse early (rotated credentials): one new token, one retry.
        if (
          error instanceof StoreCredentialsRejected &&
          'clientId' in this.connection.auth &&
          !renewedToken
        ) {
          renewedToken = true;
          this.tokens().invalidate(this.tokenKey());
          continue;
        }
        throw error;
      }
      const answer = object(body);
      if (!answer) throw new StoreAnswerInvalid('shopify', 'not a GraphQL answer');
      const cost = readQueryCost(answer.extensions);
      if (cost) {
        this.bucket.observe(cost.throttle, this.http.clock.now());
        this.lastCost.set(operation, cost.requested);
      }
      const codes = errorCodes(answer.errors);
      if (codes.includes(SHOPIFY_ERROR_CODES.throttled)) {
        const delay = cost
          ? this.bucket.delayFor(cost.requested, this.http.clock.now())
          : THROTTLED_FALLBACK_MS;
        if (++throttled > MAX_THROTTLED_RETRIES) throw new StoreRateLimited('shopify', delay);
        await this.http.wait(Math.max(delay, 50));
        continue;
      }
      if (codes.includes(SHOPIFY_ERROR_CODES.maxCostExceeded)) {
        // Orders pages shrink and ask again; our other queries are sized to fit.
        if (options.adaptable)
          throw new QueryTooCostly(
            cost?.requested ?? Number.POSITIVE_INFINITY,
            maxCostOf(answer.errors),
          );
        throw new StoreRequestFailed('shopify', `the ${operation} query costs more than allowed`);
      }
      if (codes.includes(SHOPIFY_ERROR_CODES.accessDenied))
        throw new StoreCredentialsRejected('shopify', 403);
      const data = object(answer.data);
      if (
        !data ||
        (Array.isArray(answer.errors) && answer.errors.length > 0) ||
        typeof answer.errors === 'string'
      )
        throw new StoreRequestFailed('shopify', `the ${operation} query was refused`);
      return data;
    }
  }

  private tokens(): StoreTokenCache {
    return this.http.tokens ?? PROCESS_TOKENS;
  }

  private tokenKey(): string {
    const auth = this.connection.auth;
    return `shopify:${this.connection.shopDomain}:${'clientId' in auth ? auth.clientId : ''}`;
  }

  private async token(): Promise<string> {
    const auth = this.connection.auth;
    if ('accessToken' in auth) return auth.accessToken;
    return this.tokens().get(this.tokenKey(), this.http.clock.now(), async () => {
      const { status, body } = await this.http.request({
        method: 'POST',
        url: urlUnder(this.connection.baseUrl, '/admin/oauth/access_token'),
        json: {
          client_id: auth.clientId,
          client_secret: auth.clientSecret,
          grant_type: 'client_credentials',
        },
        acceptStatuses: [400],
      });
      const answer = object(body);
      if (status === 400 || typeof answer?.access_token !== 'string')
        throw status === 400
          ? new StoreCredentialsRejected('shopify', 400)
          : new StoreAnswerInvalid('shopify', 'no access token in the token answer');
      const seconds =
        typeof answer.expires_in === 'number' && answer.expires_in > 0
          ? answer.expires_in
          : SHOPIFY_CLIENT_CREDENTIALS_TOKEN_SECONDS;
      return {
        accessToken: answer.access_token,
        expiresAt: this.http.clock.now() + seconds * 1000,
      };
    });
  }

  private adminUrl(): string | null {
    return this.connection.baseUrl.startsWith('https://') ? this.connection.baseUrl : null;
  }
}

/** `extensions.maxCost` of a MAX_COST_EXCEEDED error, when given. */
function maxCostOf(errors: unknown): number | null {
  if (!Array.isArray(errors)) return null;
  for (const error of errors) {
    const maxCost = object(object(error)?.extensions)?.maxCost;
    if (typeof maxCost === 'number' && maxCost > 0) return maxCost;
  }
  return null;
}

function errorCodes(errors: unknown): string[] {
  if (!Array.isArray(errors)) return [];
  return errors
    .map((e) => object(object(e)?.extensions)?.code)
    .filter((c): c is string => typeof c === 'string');
}

function object(value: unknown): ShopifyNode | null {
  return isObject(value) ? value : null;
}

function isObject(value: unknown): value is ShopifyNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
