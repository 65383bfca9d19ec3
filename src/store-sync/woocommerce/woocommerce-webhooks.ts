import { bodyDigest, hmacSha256Base64Matches } from '../rules/webhook-proof';
import type {
  StoreWebhookDelivery,
  StoreWebhookVerdict,
  WooCommerceConnection,
} from '../store-platform';

/** Topics that change an order we import [official: WooCommerce webhooks]. */
export const WOOCOMMERCE_ORDER_TOPICS = ['order.created', 'order.updated'] as const;
const IMPORTED_TOPICS = new Set(['order.created', 'order.updated', 'order.restored']);

/**
 * A WooCommerce webhook delivery [official: class-wc-webhook.php]: X-WC-Webhook-Signature is the
 * base64 HMAC-SHA256 of the body with the webhook's secret. The ping WooCommerce sends when a
 * webhook is created is unsigned, form-encoded `webhook_id=N`, and must be answered 200.
 * X-WC-Webhook-Delivery-ID is a hash of the webhook id and the second, not of the content, so
 * the dedup key is the order's id and its modification time: the same news twice (a retry,
 * or order.created and order.updated for one change) is handled once.
 */
export function verifyWooCommerceWebhook(
  connection: WooCommerceConnection,
  delivery: StoreWebhookDelivery,
): StoreWebhookVerdict {
  const signature = delivery.headers['x-wc-webhook-signature'];
  const text = delivery.rawBody.toString('utf8');
  if (!signature && /^webhook_id=\d+$/.test(text.trim())) return { kind: 'ping' };
  if (!hmacSha256Base64Matches(connection.webhookSecret, delivery.rawBody, signature))
    return { kind: 'rejected', reason: 'missing or wrong X-WC-Webhook-Signature' };
  const topic = (delivery.headers['x-wc-webhook-topic'] ?? '').trim();
  if (!IMPORTED_TOPICS.has(topic)) return { kind: 'ignored', topic };
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { kind: 'ignored', topic };
  }
  const id = body?.id;
  if ((typeof id !== 'number' && typeof id !== 'string') || !/^\d+$/.test(String(id)))
    return { kind: 'ignored', topic };
  const modified =
    typeof body.date_modified_gmt === 'string'
      ? body.date_modified_gmt
      : bodyDigest(delivery.rawBody);
  return {
    kind: 'order',
    orderId: String(id),
    topic,
    dedupKey: `woocommerce:${String(id)}:${modified}`,
  };
}
