import { bareHost } from '../common/outbound/address-policy';

/** BigCommerce's API root [official: bigcommerce/docs]. */
export const BIGCOMMERCE_API_ROOT = 'https://api.bigcommerce.com';

/**
 * Where a Shopify shop is called: `https://{shopDomain}`, or `http://` for a host the operator
 * allow-listed (STORE_SYNC_ALLOWED_HOSTS: a fake or sandbox on loopback, `127.0.0.1:8443`).
 */
export function shopifyBaseUrl(shopDomain: string, allowedHosts: readonly string[]): string {
  const host = shopDomain.trim().toLowerCase().replace(/\/+$/, '');
  const name = host.replace(/:\d+$/, '');
  const allowed = allowedHosts.some((h) => bareHost(h) === bareHost(name));
  return `${allowed ? 'http' : 'https'}://${host}`;
}

/** `{apiRoot}/stores/{storeHash}` (the root is BigCommerce's unless a test gives its fake's). */
export function bigcommerceBaseUrl(
  storeHash: string,
  apiRoot: string = BIGCOMMERCE_API_ROOT,
): string {
  return `${apiRoot.replace(/\/+$/, '')}/stores/${encodeURIComponent(storeHash.trim())}`;
}

/** A URL under a base that may carry a path (`https://shop.example/wp` + `/wp-json/...`). */
export function urlUnder(
  baseUrl: string,
  path: string,
  query?: Record<string, string | number>,
): URL {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, String(value));
  return url;
}
