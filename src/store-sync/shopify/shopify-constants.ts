/**
 * The Admin GraphQL API version every call names (`/admin/api/{version}/graphql.json`).
 * Versions are quarterly and supported at least 12 months [official: shopify.dev versioning];
 * move it forward once a year, checking the fields of shopify-queries.ts against the release
 * notes.
 */
export const SHOPIFY_API_VERSION = '2026-01';

/**
 * Name of the endpoint field of WebhookSubscriptionInput. UNCONFIRMED for this version:
 * Shopify's changelog ("webhookSubscriptionCreate and webhookSubscriptionUpdate support all URI
 * types") introduces `uri` and deprecates the HTTPS-only `callbackUrl` (2025-01 documents
 * `callbackUrl`); public code calls 2026-07 with `uri`. If a store answers that `uri` is not
 * an input field, this is the one place to change.
 */
export const SHOPIFY_WEBHOOK_URI_FIELD = 'uri';

/**
 * Lifetime assumed for a client-credentials token when the answer gives no `expires_in`.
 * UNCONFIRMED: 24 h according to a third party (ShopifySharp 6.30.0 release notes); Shopify's
 * page shows an expiry field without its value in our copy.
 */
export const SHOPIFY_CLIENT_CREDENTIALS_TOKEN_SECONDS = 86_400;

/** Renew a client-credentials token this long before it expires. */
export const SHOPIFY_TOKEN_RENEW_BEFORE_MS = 60 * 60_000;

/**
 * Requested cost above which Shopify refuses a query outright [official: "A single query to
 * the API cannot exceed a cost of 1000"].
 */
export const SHOPIFY_SINGLE_QUERY_LIMIT = 1000;

/**
 * GraphQL error codes. THROTTLED (HTTP 200, `extensions.cost` with the bucket) is a
 * third-party transcription (a Shopify community example), MAX_COST_EXCEEDED and
 * ACCESS_DENIED are UNCONFIRMED names of the single-query limit and a missing scope.
 */
export const SHOPIFY_ERROR_CODES = {
  throttled: 'THROTTLED',
  maxCostExceeded: 'MAX_COST_EXCEEDED',
  accessDenied: 'ACCESS_DENIED',
} as const;

/** Topics subscribed for order and fulfillment changes [official: WebhookSubscriptionTopic]. */
export const SHOPIFY_ORDER_TOPICS = [
  'ORDERS_CREATE',
  'ORDERS_UPDATED',
  'FULFILLMENTS_CREATE',
  'FULFILLMENTS_UPDATE',
] as const;

/**
 * The privacy topics every listed app must answer [official]; they are configured in the app,
 * not subscribed through the API.
 */
export const SHOPIFY_PRIVACY_TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact'];
