import { Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { outboundOpen, type OutboundStream } from '../../common/outbound/outbound-get';
import type { OutboundPolicy } from '../../common/outbound/outbound-target';
import { AppConfig } from '../../config/app-config';
import { CredentialsCipher } from '../../credentials/credentials-cipher';
import { ApiError, NotFoundError } from '../../common/errors/api-errors';
import { isImage, sniffMediaType } from '../../media/sniff-media-type';
import {
  FetchSlots,
  ImageCache,
  RecentFailures,
  proxiableUrl,
  proxiedImagePath,
  signedFor,
} from './image-proxy';

/** Largest remote image the proxy passes on (it stops reading beyond). */
export const MAX_REMOTE_IMAGE_BYTES = 5 * 1024 * 1024;
/** Largest image kept in the cache (held while it streams); larger ones are streamed only. */
export const MAX_CACHED_IMAGE_BYTES = 1024 * 1024;
/** A streamed image must be through within this (a slow browser holds its fetch). */
const TRANSFER_TIMEOUT_MS = 60_000;
/** Bytes read before answering: enough to tell a PNG, JPEG, GIF or WebP (sniff-media-type). */
const SNIFF_BYTES = 12;
const MAX_REDIRECTS = 3;
const MAX_WAITING = 500;
const USER_AGENT = 'ShipmentTracking-ImageProxy/1.0';
/** What every failure says: nothing of the other host (status, size, address, reason). */
const UNAVAILABLE = 'Image unavailable.';

/** A remote image that could not be had: 502, in the same words whatever happened. */
export class RemoteImageError extends ApiError {
  constructor() {
    super(502, UNAVAILABLE);
  }
}

/** An image to answer: a cached or small one whole, else a stream (with its length if known). */
export interface ProxiedImage {
  type: string;
  body: Buffer | Readable;
  length?: number;
}

/**
 * Remote images (a shop's product pictures and logos) shown on the tracking page through
 * `/public/images/<signature>?url=`, so the customer's browser only ever talks to this app.
 * Fetches go through the outbound policy (src/common/outbound: every hop's host resolved once,
 * private addresses refused unless in IMAGE_PROXY_ALLOWED_HOSTS, the checked address pinned),
 * at most 3 redirects, with no cookie, no referrer and a fixed User-Agent; only bytes that
 * prove a PNG, JPEG, GIF or WebP pass (never SVG). Any tenant can have a URL signed (an order
 * item's `imageUrl`), so fetches are bounded at once, in all and per workspace (the
 * signature names it), a request waiting a little for a slot, then 503; an image is streamed
 * to the browser as it arrives (at most 5 MB, the answer's headers and first bytes within
 * OUTBOUND_HTTP_TIMEOUT_MS, the whole within a minute), images up to 1 MB cached in process
 * (LRU, bounded), failures remembered for 5 minutes, concurrent requests for one URL waiting
 * for the first one's answer. Every failure reads the same, 502 `Image unavailable.`.
 */
@Injectable()
export class RemoteImages {
  private readonly logger = new Logger(RemoteImages.name);
  private readonly key: Buffer;
  private readonly policy: OutboundPolicy;
  private readonly timeoutMs: number;
  private readonly queueWaitMs: number;
  readonly slots: FetchSlots;
  readonly cache = new ImageCache({
    maxEntries: 500,
    maxBytes: 50 * 1024 * 1024,
    ttlMs: 60 * 60 * 1000,
  });
  /** Failed fetches, answered again for 5 minutes without asking the shop's server. */
  readonly failures = new RecentFailures<RemoteImageError>({ maxEntries: 1000, ttlMs: 5 * 60_000 });
  /** Fetches under way, by URL: settled when their image is cached, failed or streamed. */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(config: AppConfig, cipher: CredentialsCipher) {
    this.key = cipher.derivedKey('tracking-page-image-proxy');
    this.policy = { allowedHosts: config.imageProxyAllowedHosts };
    this.timeoutMs = config.outboundHttpTimeoutMs;
    this.queueWaitMs = config.imageProxyQueueWaitMs;
    this.slots = new FetchSlots({
      total: config.imageProxyMaxFetches,
      perKey: config.imageProxyMaxFetchesPerWorkspace,
      maxWaiting: MAX_WAITING,
    });
  }

  /** The signed proxy path of a remote image on a workspace's page, or null (not http(s)). */
  pathFor(workspaceId: string, url: unknown): string | null {
    return proxiedImagePath(this.key, workspaceId, url);
  }

  /**
   * The image behind a signed URL. A missing or bad signature is a 404 before anything is
   * fetched; no free fetch within IMAGE_PROXY_QUEUE_WAIT_MS a 503 with Retry-After; a failed
   * fetch a RemoteImageError.
   */
  async image(signature: unknown, url: unknown): Promise<ProxiedImage> {
    const accepted = proxiableUrl(url);
    const workspace =
      accepted === url && accepted ? signedFor(this.key, accepted, signature) : null;
    if (!accepted || !workspace) throw new NotFoundError();
    const known = async () => {
      const cached = this.cache.get(accepted);
      if (cached) return cached;
      const failed = this.failures.get(accepted);
      if (failed) throw failed;
      return null;
    };
    const pending = this.inFlight.get(accepted);
    // Another request is fetching it: its answer is likely cached once it is through.
    if (pending) await pending;
    const answer = await known();
    if (answer) return answer;
    const release = await this.slots.acquire(workspace, this.queueWaitMs);
    if (!release) {
      throw new ApiError(503, 'Image unavailable for now; retry later.', { 'Retry-After': '2' });
    }
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    this.inFlight.set(accepted, done);
    /** Requests waiting for this fetch go ahead (it will not be cached, or it is over). */
    const letOthersGo = () => {
      if (this.inFlight.get(accepted) === done) this.inFlight.delete(accepted);
      settle();
    };
    const finish = () => {
      release();
      letOthersGo();
    };
    try {
      const again = await known();
      if (again) {
        finish();
        return again;
      }
      return await this.fetch(accepted, { finish, letOthersGo });
    } catch (error) {
      finish();
      throw error;
    }
  }

  /**
   * Opens the image and reads its first bytes (within OUTBOUND_HTTP_TIMEOUT_MS) to prove its
   * type; answers a small image whole, a larger one as a stream. `finish` is called once the
   * fetch is over (on failure by the caller).
   */
  private async fetch(url: string, done: FetchEnd): Promise<ProxiedImage> {
    const abort = new AbortController();
    const firstBytes = setTimeout(() => abort.abort(), this.timeoutMs);
    let opened: OutboundStream | undefined;
    try {
      opened = await outboundOpen(url, {
        policy: this.policy,
        // Nothing of the customer: no cookie, no referrer, no forwarded address.
        headers: {
          'User-Agent': USER_AGENT,
          Accept: 'image/png,image/jpeg,image/gif,image/webp;q=0.9',
        },
        maxRedirects: MAX_REDIRECTS,
        maxBytes: MAX_REMOTE_IMAGE_BYTES,
        signal: abort.signal,
      });
      const start = await readStart(opened.body, SNIFF_BYTES);
      const type = sniffMediaType(start.bytes);
      if (!type || !isImage(type)) throw new Error('not a PNG, JPEG, GIF or WebP image');
      if (start.ended) {
        const image = { type, body: start.bytes };
        if (image.body.length <= MAX_CACHED_IMAGE_BYTES) this.cache.set(url, image);
        done.finish();
        return image;
      }
      clearTimeout(firstBytes);
      return this.stream(url, type, start.bytes, opened, abort, done);
    } catch (error) {
      opened?.body.destroy();
      // The operator may read why (debug); the page's visitor reads the fixed words.
      this.logger.debug(`image ${url} unavailable: ${(error as Error).message}`);
      const unavailable = new RemoteImageError();
      this.failures.set(url, unavailable);
      throw unavailable;
    } finally {
      clearTimeout(firstBytes);
    }
  }

  /**
   * The rest of the image as it arrives, passed on with backpressure (a slow browser slows the
   * fetch, nothing piles up in memory): counted against MAX_REMOTE_IMAGE_BYTES (beyond, the
   * answer is cut off and the image remembered as failed), held for the cache while it fits
   * MAX_CACHED_IMAGE_BYTES (requests for the same image wait for it only while it may be
   * cached), and over within TRANSFER_TIMEOUT_MS. A browser that goes away ends the fetch;
   * either way `finish` frees its slot.
   */
  private stream(
    url: string,
    type: string,
    start: Buffer,
    opened: OutboundStream,
    abort: AbortController,
    done: FetchEnd,
  ): ProxiedImage {
    const upstream = opened.body;
    const held: Buffer[] = [];
    let size = 0;
    const declared = Number(opened.headers['content-length']);
    let cacheable = !(declared > MAX_CACHED_IMAGE_BYTES);
    if (!cacheable) done.letOthersGo();
    const cache = this.cache;
    const failures = this.failures;
    const out = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > MAX_REMOTE_IMAGE_BYTES) {
          const unavailable = new RemoteImageError();
          failures.set(url, unavailable);
          callback(unavailable);
          return;
        }
        if (cacheable && size <= MAX_CACHED_IMAGE_BYTES) held.push(chunk);
        else if (cacheable) {
          cacheable = false;
          held.length = 0;
          done.letOthersGo();
        }
        callback(null, chunk);
      },
      flush(callback) {
        if (cacheable) cache.set(url, { type, body: Buffer.concat(held) });
        callback();
      },
    });
    const deadline = setTimeout(() => abort.abort(), TRANSFER_TIMEOUT_MS);
    const cutShort = () => out.destroy(new RemoteImageError());
    upstream.once('error', cutShort);
    upstream.once('aborted', cutShort);
    out.once('close', () => {
      clearTimeout(deadline);
      upstream.destroy();
      done.finish();
    });
    out.write(start);
    upstream.pipe(out);
    return { type, body: out, length: Number.isFinite(declared) ? declared : undefined };
  }
}

/** How a fetch tells that it is over, or that requests for the same image need not wait. */
interface FetchEnd {
  finish(): void;
  letOthersGo(): void;
}

/**
 * The answer's first `count` bytes or more (all of it when shorter), the rest left unread (the
 * stream paused), and whether that was all.
 */
function readStart(
  body: IncomingMessage,
  count: number,
): Promise<{ bytes: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (ended: boolean) => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', reject);
      body.off('close', onClose);
      body.pause();
      resolve({ bytes: Buffer.concat(chunks), ended });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= count) stop(false);
    };
    const onEnd = () => stop(true);
    const onClose = () => {
      if (!body.complete) reject(new Error('the answer was cut short'));
    };
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', reject);
    body.once('close', onClose);
  });
}
