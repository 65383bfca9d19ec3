import { TrackingProviderError } from '../tracking-provider-error';
import type { ProviderCallContext } from './provider-adapter';

/**
 * Why a tracking provider's `baseUrl` is not one we append paths to, or null when it is: an
 * absolute http(s) URL without user info, query or fragment. A `?` or `#` would turn the path
 * an adapter appends (`/register`, `/trackings`...) into a query or fragment, letting whoever
 * wrote the URL choose the path actually called; the raw text is checked, since URL parsing
 * drops an empty `?` or `#`.
 */
export function providerBaseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'This value is not a valid URL.';
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
    return 'This value is not a valid URL.';
  if (url.username !== '' || url.password !== '')
    return 'The provider URL must not carry a user name or password.';
  if (value.includes('?') || value.includes('#'))
    return 'The provider URL must not have a query (?) or fragment (#).';
  return null;
}

/**
 * `path` (with its own query, if any) appended to the credentials' base URL, trailing slashes
 * of the base dropped. A base URL that providerBaseUrlProblem refuses (stored before that rule,
 * or set by hand) is never called: a permanent error, in our words.
 */
export function providerUrl(ctx: ProviderCallContext, path: string): string {
  const { baseUrl, type } = ctx.credentials;
  if (providerBaseUrlProblem(baseUrl) !== null) {
    throw TrackingProviderError.permanent(
      `${type}: the credentials' baseUrl is not a plain http(s) URL (no query, fragment or user info)`,
      { provider: type },
    );
  }
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}
