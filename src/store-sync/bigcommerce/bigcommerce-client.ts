import {
  changedPageFromToken,
  changedPageToken,
  idAfter,
  readChangedPage,
  changedQueryStart,
  type ChangedPage,
} from '../rules/changed-paging';
import { StoreAnswerInvalid } from '../store-errors';
import type {
  BigCommerceConnection,
  ChangedOrdersQuery,
  StoreClient,
  StoreOrder,
  StoreOrderPage,
  StorePushAction,
  StorePushResult,
  StoreWebhookSubscription,
} from '../store-platform';
import { urlUnder } from '../store-base-url';
import { StoreHttp, type StoreHttpDeps, type StoreResponse } from '../transport/store-http';
import { mapLimited } from '../transport/map-limited';
import { bigcommerceStoreOrder } from './bigcommerce-order';
import { BigCommerceRateGate } from './bigcommerce-rate-gate';
import { BIGCOMMERCE_HOOK_HEADER, BIGCOMMERCE_HOOK_SCOPES } from './bigcommerce-webhooks';

/** BigCommerce's largest `limit` of v2 lists. */
export const BIGCOMMERCE_PAGE_SIZE = 250;
/** Orders of one page read at once (two or three requests each). */
const ORDER_CONCURRENCY = 4;
/** Requests a session may have running at once: products and shipments of each order. */
const IN_FLIGHT = ORDER_CONCURRENCY * 2;

type Json = Readonly<Record<string, unknown>>;

/**
 * One BigCommerce store (`/stores/{hash}/v2`, `/v3/hooks`) with X-Auth-Token. Its rate window
 * is read from every answer (BigCommerceRateGate): when none is left the next request waits
 * for the reset. Orders are listed changed-since by `date_modified`, then each one's products
 * and shipments are read (and its shipping addresses when no shipment gives one). Lists answer
 * 204 when empty.
 */
export class BigCommerceClient implements StoreClient {
  readonly platform = 'bigcommerce' as const;
  readonly http: StoreHttp;

  constructor(
    private readonly connection: BigCommerceConnection,
    deps: StoreHttpDeps,
  ) {
    this.http = new StoreHttp('bigcommerce', deps, new BigCommerceRateGate(IN_FLIGHT - 1));
  }

  async listChangedOrders(query: ChangedOrdersQuery): Promise<StoreOrderPage> {
    const at = changedPageFromToken(query.page, query.since);
    const answered = await this.list('/v2/orders', this.listQuery(at));
    const listed = answered.map((o) => {
      const head = bigcommerceStoreOrder(o, [], [], []);
      return head
        ? { id: head.id, updatedAt: head.updatedAt, raw: o }
        : { id: '', updatedAt: new Date(0), raw: null };
    });
    const { fresh, next } = readChangedPage(at, listed, BIGCOMMERCE_PAGE_SIZE);
    const orders = await mapLimited(fresh, ORDER_CONCURRENCY, (o) =>
      o.raw ? this.complete(o.raw) : Promise.resolve(null),
    );
    return {
      orders: orders.filter((o): o is StoreOrder => o !== null),
      next: next ? changedPageToken(next) : null,
    };
  }

  async readOrder(orderId: string): Promise<StoreOrder | null> {
    if (!/^\d+$/.test(orderId)) return null;
    const { status, body } = await this.get(`/v2/orders/${orderId}`, {}, [404]);
    if (status === 404 || !isObject(body)) return null;
    return this.complete(body);
  }

  async subscribeWebhooks(receiverUrl: string): Promise<StoreWebhookSubscription[]> {
    const secret = this.connection.hookSecret;
    if (!secret) throw new Error('BigCommerce hooks need the workflow hook secret first');
    const { body } = await this.get('/v3/hooks', {});
    const existing = Array.isArray((body as { data?: unknown })?.data)
      ? ((body as { data: unknown[] }).data.filter(isObject) as Json[])
      : [];
    const subscribed: StoreWebhookSubscription[] = [];
    for (const scope of BIGCOMMERCE_HOOK_SCOPES) {
      const found = existing.find((h) => h.scope === scope && h.destination === receiverUrl);
      const headers = { [BIGCOMMERCE_HOOK_HEADER]: secret };
      if (found) {
        // BigCommerce deactivates a hook after failing deliveries for two days: back on.
        if (
          found.is_active !== true ||
          (found.headers as Json | undefined)?.[BIGCOMMERCE_HOOK_HEADER] !== secret
        )
          await this.http.request({
            method: 'PUT',
            url: urlUnder(this.connection.baseUrl, `/v3/hooks/${String(found.id)}`),
            headers: this.auth(),
            json: { is_active: true, headers },
          });
        subscribed.push({ id: String(found.id), topic: scope });
        continue;
      }
      const { body: created } = await this.http.request({
        method: 'POST',
        url: urlUnder(this.connection.baseUrl, '/v3/hooks'),
        headers: this.auth(),
        json: { scope, destination: receiverUrl, is_active: true, headers },
      });
      const hook = (created as { data?: unknown })?.data;
      if (!isObject(hook)) throw new StoreAnswerInvalid('bigcommerce', 'no hook in the answer');
      subscribed.push({ id: String(hook.id), topic: scope });
    }
    return subscribed;
  }

  async push(action: StorePushAction): Promise<StorePushResult> {
    if (action.kind !== 'bigcommerce.status')
      throw new Error(`not a BigCommerce push: ${action.kind}`);
    const path = `/v2/orders/${encodeURIComponent(action.orderId)}`;
    const { body } = await this.get(path, {});
    if (isObject(body) && body.status_id === action.statusId) return { sent: false };
    await this.http.request({
      method: 'PUT',
      url: urlUnder(this.connection.baseUrl, path),
      headers: this.auth(),
      json: { status_id: action.statusId },
    });
    return { sent: true };
  }

  close(): void {
    this.http.close();
  }

  private listQuery(at: ChangedPage): Record<string, string | number> {
    if (at.mode === 'since')
      return {
        min_date_modified: bcTime(changedQueryStart(at)),
        sort: 'date_modified:asc',
        limit: BIGCOMMERCE_PAGE_SIZE,
        page: 1,
      };
    const after = idAfter(at.afterId);
    return {
      min_date_modified: bcTime(new Date(at.second)),
      max_date_modified: bcTime(new Date(at.second)),
      sort: 'id:asc',
      limit: BIGCOMMERCE_PAGE_SIZE,
      page: 1,
      ...(after ? { min_id: after } : {}),
    };
  }

  /** The order with its products, shipments and (when needed) shipping addresses. */
  private async complete(order: Json): Promise<StoreOrder | null> {
    const id = String(order.id);
    const [products, shipments] = await Promise.all([
      this.list(`/v2/orders/${id}/products`, {}),
      this.list(`/v2/orders/${id}/shipments`, {}),
    ]);
    const addresses = shipments.some((s) => isObject(s.shipping_address))
      ? shipments.map((s) => s.shipping_address).filter(isObject)
      : await this.list(`/v2/orders/${id}/shipping_addresses`, {});
    return bigcommerceStoreOrder(order, products, shipments, addresses);
  }

  /** A v2 list: 204 is an empty one. */
  private async list(path: string, query: Record<string, string | number>): Promise<Json[]> {
    const { status, body } = await this.get(path, query);
    if (status === 204 || body === '') return [];
    if (!Array.isArray(body))
      throw new StoreAnswerInvalid('bigcommerce', `${path.split('/').pop()} is not a list`);
    return body.filter(isObject);
  }

  private get(
    path: string,
    query: Record<string, string | number>,
    acceptStatuses: number[] = [],
  ): Promise<StoreResponse> {
    return this.http.request({
      method: 'GET',
      url: urlUnder(this.connection.baseUrl, path, query),
      headers: this.auth(),
      idempotent: true,
      acceptStatuses,
    });
  }

  private auth(): Record<string, string> {
    return { 'X-Auth-Token': this.connection.accessToken };
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** ISO 8601 to the second, which `min_date_modified` takes besides RFC 2822. */
function bcTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
