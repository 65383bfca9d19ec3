import { bodyDigest, sharedSecretMatches } from '../rules/webhook-proof';
import type {
  BigCommerceConnection,
  StoreWebhookDelivery,
  StoreWebhookVerdict,
} from '../store-platform';

/** Scopes subscribed: order and shipment changes [official: bigcommerce/docs webhooks]. */
export const BIGCOMMERCE_HOOK_SCOPES = [
  'store/order/created',
  'store/order/updated',
  'store/shipment/created',
  'store/shipment/updated',
] as const;

/**
 * The custom header our hooks carry with the workflow's hook secret: BigCommerce does not sign
 * deliveries, it sends back the headers set on the hook [official].
 */
export const BIGCOMMERCE_HOOK_HEADER = 'X-Store-Sync-Secret';

/**
 * A BigCommerce delivery: authentic when it carries our header's secret; thin (`data` names
 * the order, or the shipment and its `orderId`), so the order is read back from the store;
 * `hash` is the same for every retry of one event (the dedup key).
 */
export function verifyBigCommerceWebhook(
  connection: BigCommerceConnection,
  delivery: StoreWebhookDelivery,
): StoreWebhookVerdict {
  if (
    !sharedSecretMatches(
      connection.hookSecret,
      delivery.headers[BIGCOMMERCE_HOOK_HEADER.toLowerCase()],
    )
  )
    return { kind: 'rejected', reason: `missing or wrong ${BIGCOMMERCE_HOOK_HEADER}` };
  let body: { scope?: unknown; data?: Record<string, unknown>; hash?: unknown };
  try {
    body = JSON.parse(delivery.rawBody.toString('utf8')) as typeof body;
  } catch {
    return { kind: 'ignored', topic: '' };
  }
  const topic = typeof body?.scope === 'string' ? body.scope : '';
  const data = body?.data ?? {};
  const orderId =
    /^store\/order\/(created|updated|statusUpdated)$/.test(topic) && data.type === 'order'
      ? data.id
      : /^store\/shipment\/(created|updated)$/.test(topic)
        ? data.orderId
        : null;
  if (
    (typeof orderId !== 'number' && typeof orderId !== 'string') ||
    !/^\d+$/.test(String(orderId))
  )
    return { kind: 'ignored', topic };
  const hash =
    typeof body.hash === 'string' && body.hash !== '' ? body.hash : bodyDigest(delivery.rawBody);
  return { kind: 'order', orderId: String(orderId), topic, dedupKey: `bigcommerce:${hash}` };
}
