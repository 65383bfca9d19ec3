import { isIP } from 'node:net';

/**
 * A registered redirect URI: absolute, no fragment (RFC 6749 3.1.2), and one a third party
 * cannot read the code from (RFC 9700 2.1, RFC 8252):
 * - `https:` for web applications;
 * - `http:` only on a loopback address (127.0.0.0/8, [::1], localhost) for native apps, whose
 *   port may vary (RFC 8252 7.3);
 * - a private-use scheme in reverse-domain form (`com.example.app:/cb`, RFC 8252 7.1).
 */
export function isRedirectUri(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2000 || value.includes('#')) return false;
  if (/\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return !!url.hostname;
  if (url.protocol === 'http:') return isLoopbackHost(url.hostname);
  return /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/i.test(url.protocol);
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
