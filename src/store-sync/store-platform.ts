import type { StoreHttpDeps } from './transport/store-http';

/**
 * The port between store sync and the store platforms (Shopify, WooCommerce, BigCommerce).
 *
 * A `StorePlatform` is stateless: it opens a `StoreClient` for one store (a connection built
 * from the workflow's credentials) and checks webhook deliveries (pure). A `StoreClient` is one
 * store for one session (a run, a webhook, a push): it pages through the orders changed since
 * a time, reads one order, subscribes the store's webhooks and sends tracking back. Clients
 * answer platform-neutral `StoreOrder`s; the rules in `rules/` turn them into our records and
 * decide what to send back. Every call goes through `src/common/outbound` (store-http.ts), and
 * failures are the errors of store-errors.ts.
 */
export const STORE_PLATFORM_TYPES = ['shopify', 'woocommerce', 'bigcommerce'] as const;
export type StorePlatformType = (typeof STORE_PLATFORM_TYPES)[number];

/** How to reach a Shopify shop (Admin GraphQL API). */
export interface ShopifyConnection {
  readonly platform: 'shopify';
  /** `{shop}.myshopify.com`: webhooks name it (X-Shopify-Shop-Domain). */
  readonly shopDomain: string;
  /** Where the shop is called: `https://{shopDomain}` (storeBaseUrl() builds it). */
  readonly baseUrl: string;
  /** A stored Admin API access token, or a client id and secret exchanged for one (renewed). */
  readonly auth:
    { readonly accessToken: string } | { readonly clientId: string; readonly clientSecret: string };
  /** Key of X-Shopify-Hmac-SHA256 (the app's client secret); unset: deliveries are refused. */
  readonly webhookSecret?: string | null;
}

/** How to reach a WooCommerce store (REST API v3, HTTP Basic with the consumer key). */
export interface WooCommerceConnection {
  readonly platform: 'woocommerce';
  /** The site's address, e.g. `https://shop.example` (a path prefix is kept). */
  readonly baseUrl: string;
  readonly consumerKey: string;
  readonly consumerSecret: string;
  /** Key of X-WC-Webhook-Signature (the secret we give the webhooks we create). */
  readonly webhookSecret?: string | null;
  /** Order meta key holding tracking numbers, for stores without the Shipment Tracking extension. */
  readonly trackingMetaKey?: string | null;
}

/** How to reach a BigCommerce store (`/stores/{hash}/v2` and `/v3`, X-Auth-Token). */
export interface BigCommerceConnection {
  readonly platform: 'bigcommerce';
  /** `https://api.bigcommerce.com/stores/{store_hash}` (bigcommerceBaseUrl()). */
  readonly baseUrl: string;
  readonly accessToken: string;
  /** Value of the custom header our hooks carry (BigCommerce does not sign deliveries). */
  readonly hookSecret?: string | null;
}

export type StoreConnection = ShopifyConnection | WooCommerceConnection | BigCommerceConnection;

/** A postal address as stores give it (all optional; mapped to our Address). */
export interface StoreAddress {
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly company: string | null;
  readonly addressLine1: string | null;
  readonly addressLine2: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly postcode: string | null;
  readonly country: string | null;
  readonly countryIso2: string | null;
  readonly phone: string | null;
}

/** One line of a store order. */
export interface StoreOrderLine {
  /** The store's id of the line (our order item's externalSourceSyncId). */
  readonly id: string;
  readonly name: string | null;
  readonly sku: string | null;
  readonly quantity: number;
  /** Unit price, a decimal string. */
  readonly price: string | null;
  readonly productId: string | null;
  readonly variantId: string | null;
  /** Option name -> value (size, colour). */
  readonly options: Readonly<Record<string, string>>;
  readonly imageUrl: string | null;
}

/** One parcel of a store order: a Shopify fulfillment, a BigCommerce shipment, a WooCommerce tracking item. */
export interface StoreShipment {
  /** The store's id (our shipment's externalSourceSyncId). */
  readonly id: string;
  /** Tracking numbers as the store holds them (Shopify fulfillments may have several). */
  readonly trackingNumbers: readonly string[];
  /** The store's carrier name or code ("UPS", "Royal Mail", "auspost"), if any. */
  readonly carrierName: string | null;
  readonly trackingUrl: string | null;
  readonly createdAt: Date | null;
  /** Lines in this parcel with their quantities; empty when the store does not say. */
  readonly lines: ReadonlyArray<{ readonly lineId: string; readonly quantity: number }>;
  /** Where it goes, when the store gives a parcel its own address (BigCommerce). */
  readonly address: StoreAddress | null;
}

/** A store order, platform-neutral. */
export interface StoreOrder {
  readonly platform: StorePlatformType;
  /** The store's id (our order's externalSourceSyncId). */
  readonly id: string;
  /** The number customers see ("1001"). */
  readonly number: string;
  readonly createdAt: Date | null;
  /** When the store last changed it: the import cursor follows this. */
  readonly updatedAt: Date;
  readonly email: string | null;
  readonly phone: string | null;
  readonly currency: string | null;
  /** Decimal strings. */
  readonly subtotal: string | null;
  readonly total: string | null;
  /** The store's status: a code and the title it shows. */
  readonly status: { readonly code: string; readonly title: string } | null;
  readonly shippingAddress: StoreAddress | null;
  readonly billingAddress: StoreAddress | null;
  /** The order's page in the store's admin, when known. */
  readonly url: string | null;
  readonly lines: readonly StoreOrderLine[];
  readonly shipments: readonly StoreShipment[];
}

/** Where a listing continues; opaque to callers (each client defines its shape). */
export type StorePageToken = Readonly<Record<string, string | number | readonly string[] | null>>;

export interface StoreOrderPage {
  readonly orders: readonly StoreOrder[];
  /** The next page of the same listing, or null when done. */
  readonly next: StorePageToken | null;
}

export interface ChangedOrdersQuery {
  /** Orders changed at or after this instant (the import window's start). */
  readonly since: Date;
  /** Null for the first page; then the previous page's `next`. */
  readonly page: StorePageToken | null;
}

/** A webhook subscription at the store. */
export interface StoreWebhookSubscription {
  readonly id: string;
  /** The platform's topic or scope (`ORDERS_UPDATED`, `order.updated`, `store/order/updated`). */
  readonly topic: string;
}

/** Tracking sent back to a store: what the push rules decided (rules/*), durable as JSON. */
export type StorePushAction =
  | {
      readonly kind: 'shopify.fulfillmentEvent';
      /** Numeric id of the fulfillment (our shipment's externalSourceSyncId). */
      readonly fulfillmentId: string;
      readonly status: string;
      readonly happenedAt: string;
      readonly estimatedDeliveryAt: string | null;
      readonly message: string | null;
      readonly city: string | null;
      readonly province: string | null;
      readonly country: string | null;
      readonly zip: string | null;
    }
  | {
      readonly kind: 'woocommerce.note';
      readonly orderId: string;
      readonly note: string;
      /** Shown to the customer (WooCommerce mails customer notes). */
      readonly customerNote: boolean;
    }
  | { readonly kind: 'woocommerce.complete'; readonly orderId: string }
  | { readonly kind: 'bigcommerce.status'; readonly orderId: string; readonly statusId: number };

export interface StorePushResult {
  /** False when the store already had it (a retried push): nothing was sent twice. */
  readonly sent: boolean;
}

export interface StoreClient {
  readonly platform: StorePlatformType;
  /**
   * One page of the orders changed at or after `query.since`, oldest change first. Pages are
   * read one after the other, each with the previous page's `next`, until `next` is null.
   */
  listChangedOrders(query: ChangedOrdersQuery): Promise<StoreOrderPage>;
  /** One order by the store's id; null when the store has no such order. */
  readOrder(orderId: string): Promise<StoreOrder | null>;
  /** Subscribes the order and shipment topics to `receiverUrl` (idempotent). */
  subscribeWebhooks(receiverUrl: string): Promise<StoreWebhookSubscription[]>;
  /** Sends one decided push, unless the store already has it. */
  push(action: StorePushAction): Promise<StorePushResult>;
  /** Ends the session's kept-alive connections. */
  close(): void;
}

/** A webhook delivery as received: the exact bytes (signatures cover them), headers lower-cased. */
export interface StoreWebhookDelivery {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly rawBody: Buffer;
}

/** What a delivery is, once checked. */
export type StoreWebhookVerdict =
  /** Not from the store (bad or missing proof): answered 401, nothing done. */
  | { readonly kind: 'rejected'; readonly reason: string }
  /** WooCommerce's creation ping (unsigned `webhook_id=N`): answered 200, nothing done. */
  | { readonly kind: 'ping' }
  /** Shopify's mandatory privacy topics: answered 200, handled by the privacy rules. */
  | { readonly kind: 'privacy'; readonly topic: string; readonly dedupKey: string }
  /** A change of one order: imported through the same path as the periodic pull. */
  | {
      readonly kind: 'order';
      readonly orderId: string;
      readonly topic: string;
      /** Deliveries with the same key are the same news (retries): handled once. */
      readonly dedupKey: string;
    }
  /** Authentic, but about nothing we import (another topic, a deleted record): 200, nothing done. */
  | { readonly kind: 'ignored'; readonly topic: string };

export interface StorePlatform<C extends StoreConnection = StoreConnection> {
  readonly type: C['platform'];
  /** A client for one store; its session ends with `close()`. */
  connect(connection: C, deps: StoreHttpDeps): StoreClient;
  /** Checks a delivery's proof and says what it is about (pure: no I/O). */
  verifyWebhook(connection: C, delivery: StoreWebhookDelivery): StoreWebhookVerdict;
}
