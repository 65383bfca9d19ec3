import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The pure rules of the tracking page's image proxy: which remote URLs it takes, how their
 * `/public/images/<signature>?url=<url>` paths are signed and checked, and its cache. Only
 * URLs the app signed while rendering a page are ever fetched (not an open proxy).
 */

export const IMAGE_PROXY_PATH = '/public/images';
/** Longest remote URL the page proxies (longer ones keep the placeholder). */
export const MAX_PROXIED_URL_LENGTH = 2000;

/** The remote URL as the proxy takes it (http(s), no credentials, not too long), else null. */
export function proxiableUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url === '' || url.length > MAX_PROXIED_URL_LENGTH) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    if (parsed.username || parsed.password || !parsed.hostname) return null;
    parsed.hash = '';
    return parsed.href.length <= MAX_PROXIED_URL_LENGTH ? parsed.href : null;
  } catch {
    return null;
  }
}

/** HMAC-SHA256 of the URL under the proxy's key, base64url (43 characters). */
export function imageSignature(key: Buffer, url: string): string {
  return createHmac('sha256', key).update(url, 'utf8').digest('base64url');
}

/** Whether `signature` is the URL's own (constant-time comparison). */
export function validImageSignature(key: Buffer, url: string, signature: unknown): boolean {
  if (typeof signature !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return false;
  const expected = Buffer.from(imageSignature(key, url), 'utf8');
  return timingSafeEqual(expected, Buffer.from(signature, 'utf8'));
}

/** The proxy path of a remote image, or null when the URL is not one the proxy takes. */
export function proxiedImagePath(key: Buffer, url: unknown): string | null {
  const accepted = proxiableUrl(url);
  if (!accepted) return null;
  return `${IMAGE_PROXY_PATH}/${imageSignature(key, accepted)}?url=${encodeURIComponent(accepted)}`;
}

export interface CachedImage {
  type: string;
  body: Buffer;
}

export interface ImageCacheLimits {
  maxEntries: number;
  maxBytes: number;
  ttlMs: number;
}

/**
 * A small in-process LRU cache of fetched images, bounded by entries and total bytes, each
 * entry kept at most `ttlMs`. `now` is injectable for tests.
 */
export class ImageCache {
  private readonly entries = new Map<string, CachedImage & { expires: number }>();
  private bytes = 0;

  constructor(
    readonly limits: ImageCacheLimits,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  get(url: string): CachedImage | null {
    const entry = this.entries.get(url);
    if (!entry) return null;
    if (entry.expires <= this.now()) {
      this.remove(url);
      return null;
    }
    // Most recently used last.
    this.entries.delete(url);
    this.entries.set(url, entry);
    return { type: entry.type, body: entry.body };
  }

  set(url: string, image: CachedImage): void {
    this.remove(url);
    if (image.body.length > this.limits.maxBytes) return;
    this.entries.set(url, { ...image, expires: this.now() + this.limits.ttlMs });
    this.bytes += image.body.length;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(url: string): void {
    const entry = this.entries.get(url);
    if (!entry) return;
    this.entries.delete(url);
    this.bytes -= entry.body.length;
  }
}

/**
 * Images that could not be had lately, remembered for `ttlMs` (at most `maxEntries`, the
 * oldest forgotten first), so a broken image on a page viewed often is not fetched again at
 * every view. `now` is injectable for tests.
 */
export class RecentFailures<E> {
  private readonly entries = new Map<string, { error: E; expires: number }>();

  constructor(
    readonly limits: { maxEntries: number; ttlMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  get(url: string): E | null {
    const entry = this.entries.get(url);
    if (!entry) return null;
    if (entry.expires > this.now()) return entry.error;
    this.entries.delete(url);
    return null;
  }

  set(url: string, error: E): void {
    this.entries.delete(url);
    this.entries.set(url, { error, expires: this.now() + this.limits.ttlMs });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limits.maxEntries) break;
      this.entries.delete(oldest);
    }
  }
}
