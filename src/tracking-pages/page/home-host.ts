import { isIP } from 'node:net';

/** Hosts of the deployment, from its configuration. */
export interface SiteHosts {
  /** The API's own hosts (`localhost`, PUBLIC_URL's): never a tracking page's home. */
  apiHosts: ReadonlySet<string>;
  /** Host of PUBLIC_TRACKING_BASE_URL: `<subdomain>.<it>` is that page's home. */
  trackingHost: string | null;
}

/** The host part of a URL, lower-cased; null when unset or malformed. */
export function hostOfUrl(url: string | undefined): string | null {
  try {
    return url ? new URL(url).hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * Which tracking page a request host may be the home of: `{subdomain}` for
 * `<label>.<tracking host>`, and `{domain}` (a custom domain, verified by the caller's query)
 * for any other name; null for the API's own hosts and IP addresses.
 */
export function homeHostOf(
  hostname: string | undefined,
  hosts: SiteHosts,
): { subdomain?: string; domain: string } | null {
  const host = (hostname ?? '').toLowerCase();
  if (!host || isIP(host) || hosts.apiHosts.has(host)) return null;
  const suffix = hosts.trackingHost ? `.${hosts.trackingHost}` : null;
  if (suffix && host.endsWith(suffix)) {
    const label = host.slice(0, -suffix.length);
    if (label && !label.includes('.')) return { subdomain: label, domain: host };
  }
  return { domain: host };
}
