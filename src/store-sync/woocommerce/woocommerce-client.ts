import {
  changedPageFromToken,
  changedPageToken,
  changedQueryStart,
  readChangedPage,
  type ChangedPage,
} from '../rules/changed-paging';
import { StoreAnswerInvalid } from '../store-errors';
import type {
  ChangedOrdersQuery,
  StoreClient,
  StoreOrder,
  StoreOrderPage,
  StorePushAction,
  StorePushResult,
  StoreWebhookSubscription,
  WooCommerceConnection,
} from '../store-platform';
import { urlUnder } from '../store-base-url';
import { StoreHttp, type StoreHttpDeps, type StoreResponse } from '../transport/store-http';
import { mapLimited } from '../transport/map-limited';
import { WOOCOMMERCE_ORDER_TOPICS } from './woocommerce-webhooks';
import { woocommerceStoreOrder, type WooTrackingItem } from './woocommerce-order';

/** WooCommerce's largest `per_page`. */
export const WOOCOMMERCE_PAGE_SIZE = 100;
/** Tracking look-ups of one page in flight at once (one request per order). */
const TRACKING_CONCURRENCY = 4;

const ORDERS = '/wp-json/wc/v3/orders';
const WEBHOOKS = '/wp-json/wc/v3/webhooks';
const TRACKINGS = (orderId: string) =>
  `/wp-json/wc-shipment-tracking/v3/orders/${encodeURIComponent(orderId)}/shipment-trackings`;

/**
 * One WooCommerce store over REST API v3 with HTTP Basic (consumer key and secret; the outbound
 * policy keeps them to https). Orders are listed changed-since, oldest change first, 100 a
 * page, with the paging of changed-paging.ts (`exclude` for the ids already read at the
 * page's second, `offset` within one second). Tracking numbers come from the Shipment Tracking
 * extension (one request per order; a store without it answers rest_no_route once and is not
 * asked again) and from the workflow's order meta key.
 */
export class WooCommerceClient implements StoreClient {
  readonly platform = 'woocommerce' as const;
  readonly http: StoreHttp;
  private readonly authorization: string;
  /** Null until the first tracking look-up tells whether the extension is installed. */
  private extension: boolean | null = null;

  constructor(
    private readonly connection: WooCommerceConnection,
    deps: StoreHttpDeps,
  ) {
    this.http = new StoreHttp('woocommerce', deps);
    this.authorization = `Basic ${Buffer.from(`${connection.consumerKey}:${connection.consumerSecret}`).toString('base64')}`;
  }

  async listChangedOrders(query: ChangedOrdersQuery): Promise<StoreOrderPage> {
    const at = changedPageFromToken(query.page, query.since);
    const { body } = await this.get(ORDERS, this.listQuery(at));
    if (!Array.isArray(body))
      throw new StoreAnswerInvalid('woocommerce', 'the order list is not a list');
    // Every answered order counts towards a full page, even one too broken to import.
    const listed = body.map((o) => {
      const head = isObject(o) ? woocommerceStoreOrder(o, [], null) : null;
      return head
        ? { id: head.id, updatedAt: head.updatedAt, raw: o as Json }
        : { id: '', updatedAt: new Date(0), raw: null };
    });
    const { fresh, next } = readChangedPage(at, listed, WOOCOMMERCE_PAGE_SIZE);
    const read = (o: (typeof fresh)[number]) =>
      o.raw ? this.withTracking(o.raw) : Promise.resolve(null);
    // The session's first look-up alone: it tells whether the extension is there at all.
    const first = this.extension === null && fresh.length > 0 ? [await read(fresh[0])] : [];
    const orders = [
      ...first,
      ...(await mapLimited(fresh.slice(first.length), TRACKING_CONCURRENCY, read)),
    ];
    return {
      orders: orders.filter((o): o is StoreOrder => o !== null),
      next: next ? changedPageToken(next) : null,
    };
  }

  async readOrder(orderId: string): Promise<StoreOrder | null> {
    if (!/^\d+$/.test(orderId)) return null;
    const { status, body } = await this.get(`${ORDERS}/${orderId}`, {}, [404]);
    if (status === 404 || !isObject(body)) return null;
    return this.withTracking(body);
  }

  async subscribeWebhooks(receiverUrl: string): Promise<StoreWebhookSubscription[]> {
    const secret = this.connection.webhookSecret;
    if (!secret) throw new Error('WooCommerce webhooks need the workflow webhook secret first');
    const { body } = await this.get(WEBHOOKS, { per_page: 100 });
    const existing = Array.isArray(body) ? body.filter(isObject) : [];
    const subscribed: StoreWebhookSubscription[] = [];
    for (const topic of WOOCOMMERCE_ORDER_TOPICS) {
      const found = existing.find(
        (w) => w.topic === topic && w.delivery_url === receiverUrl && w.status === 'active',
      );
      if (found) {
        subscribed.push({ id: String(found.id), topic });
        continue;
      }
      const { body: created } = await this.http.request({
        method: 'POST',
        url: urlUnder(this.connection.baseUrl, WEBHOOKS),
        headers: { Authorization: this.authorization },
        json: {
          name: `Shipment tracking (${topic})`,
          topic,
          delivery_url: receiverUrl,
          secret,
          status: 'active',
        },
      });
      if (!isObject(created) || created.id === undefined)
        throw new StoreAnswerInvalid('woocommerce', 'no webhook in the answer');
      subscribed.push({ id: String(created.id), topic });
    }
    return subscribed;
  }

  async push(action: StorePushAction): Promise<StorePushResult> {
    if (action.kind === 'woocommerce.note') {
      const path = `${ORDERS}/${encodeURIComponent(action.orderId)}/notes`;
      const { body } = await this.get(path, {});
      // A retried push finds its note (the text carries the status and its time).
      if (Array.isArray(body) && body.some((n) => isObject(n) && n.note === action.note))
        return { sent: false };
      await this.http.request({
        method: 'POST',
        url: urlUnder(this.connection.baseUrl, path),
        headers: { Authorization: this.authorization },
        json: { note: action.note, customer_note: action.customerNote },
      });
      return { sent: true };
    }
    if (action.kind === 'woocommerce.complete') {
      const path = `${ORDERS}/${encodeURIComponent(action.orderId)}`;
      const { body } = await this.get(path, {});
      if (isObject(body) && body.status === 'completed') return { sent: false };
      await this.http.request({
        method: 'PUT',
        url: urlUnder(this.connection.baseUrl, path),
        headers: { Authorization: this.authorization },
        json: { status: 'completed' },
      });
      return { sent: true };
    }
    throw new Error(`not a WooCommerce push: ${action.kind}`);
  }

  close(): void {
    this.http.close();
  }

  private listQuery(at: ChangedPage): Record<string, string | number> {
    const base = { dates_are_gmt: 'true', per_page: WOOCOMMERCE_PAGE_SIZE };
    if (at.mode === 'since') {
      return {
        ...base,
        // `modified_after` is exclusive: asked a second early (changedQueryStart).
        modified_after: wcTime(changedQueryStart(at)),
        orderby: 'modified',
        order: 'asc',
        ...(at.seen.length > 0 ? { exclude: at.seen.join(',') } : {}),
      };
    }
    const second = Date.parse(at.second);
    return {
      ...base,
      modified_after: wcTime(new Date(second - 1000)),
      modified_before: wcTime(new Date(second + 1000)),
      orderby: 'id',
      order: 'asc',
      offset: at.skip,
    };
  }

  /** The order with its tracking items (when the extension is there) and meta numbers. */
  private async withTracking(order: Json): Promise<StoreOrder | null> {
    let items: WooTrackingItem[] = [];
    if (
      this.extension !== false &&
      (typeof order.id === 'number' || typeof order.id === 'string')
    ) {
      const { status, body } = await this.get(TRACKINGS(String(order.id)), {}, [404]);
      if (status === 404) {
        // rest_no_route: the extension is not installed (an unknown order says otherwise).
        if (isObject(body) && body.code === 'rest_no_route') this.extension = false;
      } else {
        this.extension = true;
        items = Array.isArray(body) ? body.filter(isObject) : [];
      }
    }
    return woocommerceStoreOrder(order, items, this.connection.trackingMetaKey ?? null);
  }

  private get(
    path: string,
    query: Record<string, string | number>,
    acceptStatuses: number[] = [],
  ): Promise<StoreResponse> {
    return this.http.request({
      method: 'GET',
      url: urlUnder(this.connection.baseUrl, path, query),
      headers: { Authorization: this.authorization },
      idempotent: true,
      acceptStatuses,
    });
  }
}

type Json = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `2024-05-01T10:00:00`: WooCommerce's date parameters, read as GMT with dates_are_gmt. */
function wcTime(date: Date): string {
  return date.toISOString().slice(0, 19);
}
