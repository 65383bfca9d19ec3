/**
 * The first-party client (the merchant console, src/admin-console) is served by this service:
 * its redirect URI is `/admin/` on the origin the browser is on, not a registered list. Pure.
 */
export const CONSOLE_PATH = '/admin/';

/** The console's `client_id` (migration AdminConsoleClient; the console sends it as is). */
export const CONSOLE_CLIENT_ID = 'admin-console';

/**
 * The redirect URIs a first-party client may use for a request that came to `origin` (the
 * request's `scheme://host`) on a service published at `publicUrl` (PUBLIC_URL, when set: a
 * TLS proxy may forward plain http).
 */
export function firstPartyRedirectUris(origin: string, publicUrl?: string): string[] {
  const bases = [origin, publicUrl]
    .filter((b): b is string => !!b && /^https?:\/\/[^/]+/.test(b))
    .map((b) => b.replace(/\/+$/, ''));
  return [...new Set(bases.map((b) => `${b}${CONSOLE_PATH}`))];
}

/**
 * The library's second check of a first-party redirect URI (the first one, against the
 * request's origin, is AuthorizationRequests'): an http(s) URI whose path is the console's,
 * with nothing after it.
 */
export function isFirstPartyRedirectUri(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.pathname === CONSOLE_PATH &&
    !url.search &&
    !url.hash &&
    !url.username &&
    !url.password &&
    uri === `${url.origin}${CONSOLE_PATH}`
  );
}
