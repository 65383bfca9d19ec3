import { bodyDigest, hmacSha256Base64Matches } from '../rules/webhook-proof';
import type {
  ShopifyConnection,
  StoreWebhookDelivery,
  StoreWebhookVerdict,
} from '../store-platform';
import { SHOPIFY_PRIVACY_TOPICS } from './shopify-constants';

/**
 * A Shopify webhook delivery [official: verify-deliveries]: X-Shopify-Hmac-SHA256 is the
 * base64 HMAC-SHA256 of the raw body with the app's client secret (a bad one must be answered
 * 401); X-Shopify-Webhook-Id is the same for every retry of one delivery (the dedup key);
 * X-Shopify-Shop-Domain must be this workflow's shop (one app may serve several shops with one
 * secret). Order topics carry the order (`id`), fulfillment topics its `order_id`.
 */
export function verifyShopifyWebhook(
  connection: ShopifyConnection,
  delivery: StoreWebhookDelivery,
): StoreWebhookVerdict {
  const secret =
    connection.webhookSecret ??
    ('clientSecret' in connection.auth ? connection.auth.clientSecret : null);
  if (!hmacSha256Base64Matches(secret, delivery.rawBody, delivery.headers['x-shopify-hmac-sha256']))
    return { kind: 'rejected', reason: 'missing or wrong X-Shopify-Hmac-SHA256' };
  const shop = delivery.headers['x-shopify-shop-domain']?.trim().toLowerCase();
  if (shop && shop !== connection.shopDomain.trim().toLowerCase())
    return { kind: 'rejected', reason: 'a delivery for another shop' };
  const topic = (delivery.headers['x-shopify-topic'] ?? '').trim();
  const id = delivery.headers['x-shopify-webhook-id']?.trim();
  const dedupKey = `shopify:${id || bodyDigest(delivery.rawBody)}`;
  if (SHOPIFY_PRIVACY_TOPICS.includes(topic)) return { kind: 'privacy', topic, dedupKey };
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(delivery.rawBody.toString('utf8')) as Record<string, unknown>;
  } catch {
    return { kind: 'ignored', topic };
  }
  const orderId =
    topic === 'orders/delete'
      ? null
      : topic.startsWith('orders/')
        ? body?.id
        : topic.startsWith('fulfillments/')
          ? body?.order_id
          : null;
  if (
    (typeof orderId !== 'number' && typeof orderId !== 'string') ||
    !/^\d+$/.test(String(orderId))
  )
    return { kind: 'ignored', topic };
  return { kind: 'order', orderId: String(orderId), topic, dedupKey };
}
