/**
 * Where the storefront billing return may send a merchant's browser (no open redirect on this
 * service's origin): the service's own origins exactly (scheme, host and port), or https on the
 * default port of a custom domain the team verified. Pure: the caller gives both lists.
 */
export function returnUrlAllowed(
  url: string,
  ownOrigins: readonly string[],
  verifiedDomains: readonly string[],
): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  if (ownOrigins.includes(parsed.origin)) return true;
  return (
    parsed.protocol === 'https:' &&
    parsed.port === '' &&
    verifiedDomains.some((d) => d.toLowerCase() === parsed.hostname)
  );
}

/** The origins of the configured base URLs (PUBLIC_URL, PUBLIC_TRACKING_BASE_URL, ...). */
export function originsOf(baseUrls: ReadonlyArray<string | undefined>): string[] {
  const out: string[] = [];
  for (const base of baseUrls) {
    if (!base) continue;
    try {
      const origin = new URL(base).origin;
      if (origin !== 'null' && !out.includes(origin)) out.push(origin);
    } catch {
      // Configuration is validated at start; an unreadable value allows nothing.
    }
  }
  return out;
}
