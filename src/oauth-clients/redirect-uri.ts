/**
 * A registered redirect URI: absolute, no fragment (RFC 6749 3.1.2). Custom schemes are
 * allowed for native apps; plain http is allowed (local development, loopback apps).
 */
export function isRedirectUri(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2000 || value.includes('#')) return false;
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    if (['javascript:', 'data:', 'vbscript:', 'file:'].includes(url.protocol)) return false;
    if (['http:', 'https:'].includes(url.protocol)) return !!url.hostname;
    return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol);
  } catch {
    return false;
  }
}
