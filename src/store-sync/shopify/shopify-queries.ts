/**
 * The GraphQL documents of the Shopify client. Nested lists are sized for usual orders, so one
 * order's requested cost stays under 100 points and a page holds ten orders or more within the
 * single-query limit; what a big order has beyond them is read by follow-up queries
 * (shopify-client.ts). No fragments: each document spells its fields out.
 */
export const NESTED = {
  lineItems: 5,
  fulfillments: 4,
  trackingInfo: 2,
  fulfillmentLineItems: 5,
  /** Follow-up pages of one order's lines or one fulfillment's lines. */
  followUpPage: 100,
  /** Fulfillment ids of an order with more than `fulfillments`. */
  fulfillmentIds: 250,
  trackingInfoFollowUp: 50,
  events: 50,
};

const ADDRESS = `firstName lastName company address1 address2 city province provinceCode zip country countryCodeV2 phone`;

const LINE_ITEM = `id name sku quantity variantTitle originalUnitPriceSet { shopMoney { amount } } product { id } image { url }`;

const FULFILLMENT_LINE = `id quantity lineItem { id }`;

/** A fulfillment's fields; `lines` is its fulfillmentLineItems connection's arguments. */
export const fulfillmentFields = (tracking: number, lines: string) =>
  `id status createdAt updatedAt estimatedDeliveryAt trackingInfo(first: ${tracking}) { company number url } fulfillmentLineItems(${lines}) { pageInfo { hasNextPage endCursor } nodes { ${FULFILLMENT_LINE} } }`;

const ORDER_FIELDS = `id name email phone createdAt updatedAt cancelledAt closed currencyCode displayFulfillmentStatus displayFinancialStatus
  subtotalPriceSet { shopMoney { amount } } totalPriceSet { shopMoney { amount } }
  shippingAddress { ${ADDRESS} } billingAddress { ${ADDRESS} }
  lineItems(first: ${NESTED.lineItems}) { pageInfo { hasNextPage endCursor } nodes { ${LINE_ITEM} } }
  fulfillments(first: ${NESTED.fulfillments}) { ${fulfillmentFields(NESTED.trackingInfo, `first: ${NESTED.fulfillmentLineItems}`)} }`;

export const ORDERS_PAGE = `query StoreSyncOrders($first: Int!, $after: String, $query: String) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    pageInfo { hasNextPage endCursor }
    nodes { ${ORDER_FIELDS} }
  }
}`;

export const ORDER = `query StoreSyncOrder($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } }`;

export const ORDER_LINE_ITEMS = `query StoreSyncOrderLines($id: ID!, $after: String) {
  order(id: $id) { lineItems(first: ${NESTED.followUpPage}, after: $after) { pageInfo { hasNextPage endCursor } nodes { ${LINE_ITEM} } } }
}`;

export const ORDER_FULFILLMENT_IDS = `query StoreSyncFulfillmentIds($id: ID!) {
  order(id: $id) { fulfillments(first: ${NESTED.fulfillmentIds}) { id } }
}`;

export const FULFILLMENT = `query StoreSyncFulfillment($id: ID!, $after: String) {
  fulfillment(id: $id) { ${fulfillmentFields(NESTED.trackingInfoFollowUp, `first: ${NESTED.followUpPage}, after: $after`)} }
}`;

export const FULFILLMENT_EVENTS = `query StoreSyncFulfillmentEvents($id: ID!) {
  fulfillment(id: $id) { id events(first: ${NESTED.events}) { nodes { status } } }
}`;

export const FULFILLMENT_EVENT_CREATE = `mutation StoreSyncFulfillmentEvent($fulfillmentEvent: FulfillmentEventInput!) {
  fulfillmentEventCreate(fulfillmentEvent: $fulfillmentEvent) { fulfillmentEvent { id status } userErrors { field message } }
}`;

export const WEBHOOK_SUBSCRIPTIONS = `query StoreSyncWebhooks { webhookSubscriptions(first: 100) { nodes { id topic uri } } }`;

export const WEBHOOK_SUBSCRIPTION_CREATE = `mutation StoreSyncSubscribe($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) { webhookSubscription { id topic } userErrors { field message } }
}`;
