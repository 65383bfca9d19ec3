import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The pure rules of the tracking page's image proxy: which remote URLs it takes, how their
 * `/public/images/<signature>?url=<url>` paths are signed and checked, its cache and the bound
 * on fetches at once. Only URLs the app signed while rendering a page are ever fetched; any
 * tenant can have any URL signed (an order item's `imageUrl`), so the signature also names the
 * workspace it was made for, and fetches are bounded per workspace as well as in all.
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

/** The bound key of links signed before signatures named their workspace (one for them all). */
export const UNSCOPED_LINKS = 'unscoped';

const mac = (key: Buffer, text: string) =>
  createHmac('sha256', key).update(text, 'utf8').digest('base64url');

/**
 * A workspace's tag in signatures: opaque (the page does not show the workspace's id), fixed
 * for the workspace and the key, 16 base64url characters.
 */
export function workspaceTag(key: Buffer, workspaceId: string): string {
  return mac(key, `workspace:${workspaceId}`).slice(0, 16);
}

/**
 * The signature of a URL shown by a workspace's page: `<tag>.<HMAC-SHA256 of tag and URL>`
 * (base64url, 16 + 1 + 43 characters).
 */
export function imageSignature(key: Buffer, workspaceId: string, url: string): string {
  const tag = workspaceTag(key, workspaceId);
  return `${tag}.${mac(key, `${tag}\n${url}`)}`;
}

/**
 * Whom a signature was made for: the workspace's tag for a valid one; UNSCOPED_LINKS for a
 * valid signature of the former kind (the URL's HMAC alone, made before tags: such links keep
 * working, all sharing one bound); null when it is not the URL's (constant-time comparisons).
 */
export function signedFor(key: Buffer, url: string, signature: unknown): string | null {
  if (typeof signature !== 'string') return null;
  const scoped = /^([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/.exec(signature);
  if (scoped) return same(mac(key, `${scoped[1]}\n${url}`), scoped[2]) ? scoped[1] : null;
  if (/^[A-Za-z0-9_-]{43}$/.test(signature) && same(mac(key, url), signature))
    return UNSCOPED_LINKS;
  return null;
}

function same(expected: string, given: string): boolean {
  return timingSafeEqual(Buffer.from(expected, 'utf8'), Buffer.from(given, 'utf8'));
}

/**
 * The proxy path of a remote image on a workspace's page, or null when the URL is not one the
 * proxy takes.
 */
export function proxiedImagePath(key: Buffer, workspaceId: string, url: unknown): string | null {
  const accepted = proxiableUrl(url);
  if (!accepted) return null;
  const signature = imageSignature(key, workspaceId, accepted);
  return `${IMAGE_PROXY_PATH}/${signature}?url=${encodeURIComponent(accepted)}`;
}

export interface FetchSlotLimits {
  /** Fetches at once in all. */
  total: number;
  /** Fetches at once per key (a workspace's tag). */
  perKey: number;
  /** Requests waiting for a slot at most; more are refused at once. */
  maxWaiting: number;
}

/**
 * Bounds fetches at once, in all and per key: `acquire` answers a release function as soon as
 * both have room (waiters served first come, first served, a waiter whose key is full not
 * holding up the others), or null when none came within `waitMs` or too many already wait.
 */
export class FetchSlots {
  private total = 0;
  private readonly perKey = new Map<string, number>();
  private readonly waiting: Array<{ key: string; grant: (release: () => void) => void }> = [];

  constructor(readonly limits: FetchSlotLimits) {}

  get active(): number {
    return this.total;
  }

  acquire(key: string, waitMs: number): Promise<(() => void) | null> {
    if (this.fits(key)) return Promise.resolve(this.take(key));
    if (this.waiting.length >= this.limits.maxWaiting || waitMs <= 0) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter = {
        key,
        grant: (release: () => void) => {
          clearTimeout(timer);
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        resolve(null);
      }, waitMs);
      this.waiting.push(waiter);
    });
  }

  private fits(key: string): boolean {
    return this.total < this.limits.total && (this.perKey.get(key) ?? 0) < this.limits.perKey;
  }

  private take(key: string): () => void {
    this.total++;
    this.perKey.set(key, (this.perKey.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = this.perKey.get(key)! - 1;
      if (left === 0) this.perKey.delete(key);
      else this.perKey.set(key, left);
      this.serveWaiting();
    };
  }

  private serveWaiting(): void {
    for (let i = 0; i < this.waiting.length && this.total < this.limits.total;) {
      const waiter = this.waiting[i];
      if (!this.fits(waiter.key)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      waiter.grant(this.take(waiter.key));
    }
  }
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
