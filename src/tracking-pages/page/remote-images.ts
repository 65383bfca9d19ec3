import { Injectable } from '@nestjs/common';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  OutboundRefusedError,
  pinnedLookup,
  resolveOutboundTarget,
  type OutboundPolicy,
} from '../../common/outbound/outbound-target';
import { AppConfig } from '../../config/app-config';
import { CredentialsCipher } from '../../credentials/credentials-cipher';
import { ApiError, NotFoundError } from '../../hydra/errors/api-errors';
import { isImage, sniffMediaType } from '../../media/sniff-media-type';
import {
  ImageCache,
  proxiableUrl,
  proxiedImagePath,
  validImageSignature,
  type CachedImage,
} from './image-proxy';

/** Largest remote image the proxy reads (it stops reading beyond). */
export const MAX_REMOTE_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const USER_AGENT = 'ShipmentTracking-ImageProxy/1.0';

/** A remote image that could not be had: 404 (the shop has none) or 502 (anything else). */
export class RemoteImageError extends ApiError {
  constructor(status: 404 | 502, message: string) {
    super(status, message);
  }
}

/**
 * Remote images (a shop's product pictures and logos) shown on the tracking page through
 * `/public/images/<signature>?url=`, so the customer's browser only ever talks to this app.
 * Fetches go through the outbound policy (src/common/outbound: every hop's host resolved once,
 * private addresses refused unless in IMAGE_PROXY_ALLOWED_HOSTS, the checked address pinned),
 * within OUTBOUND_HTTP_TIMEOUT_MS in all, at most 5 MB, at most 3 redirects, with no cookie,
 * no referrer and a fixed User-Agent; only bytes that prove a PNG, JPEG, GIF or WebP pass
 * (never SVG). Answers are cached in process (LRU, bounded) and concurrent requests for one
 * URL share a fetch.
 */
@Injectable()
export class RemoteImages {
  private readonly key: Buffer;
  private readonly policy: OutboundPolicy;
  private readonly timeoutMs: number;
  readonly cache = new ImageCache({
    maxEntries: 500,
    maxBytes: 50 * 1024 * 1024,
    ttlMs: 60 * 60 * 1000,
  });
  private readonly inFlight = new Map<string, Promise<CachedImage>>();

  constructor(config: AppConfig, cipher: CredentialsCipher) {
    this.key = cipher.derivedKey('tracking-page-image-proxy');
    this.policy = { allowedHosts: config.imageProxyAllowedHosts };
    this.timeoutMs = config.outboundHttpTimeoutMs;
  }

  /** The signed proxy path of a remote image, or null (not an http(s) URL we take). */
  pathFor(url: unknown): string | null {
    return proxiedImagePath(this.key, url);
  }

  /**
   * The image behind a signed URL. A missing or bad signature is a 404 before anything is
   * fetched; a failed fetch a RemoteImageError.
   */
  async image(signature: unknown, url: unknown): Promise<CachedImage> {
    const accepted = proxiableUrl(url);
    if (!accepted || accepted !== url || !validImageSignature(this.key, accepted, signature))
      throw new NotFoundError();
    const cached = this.cache.get(accepted);
    if (cached) return cached;
    let pending = this.inFlight.get(accepted);
    if (!pending) {
      pending = this.fetch(accepted)
        .then((image) => {
          this.cache.set(accepted, image);
          return image;
        })
        .finally(() => this.inFlight.delete(accepted));
      this.inFlight.set(accepted, pending);
    }
    return pending;
  }

  private async fetch(url: string): Promise<CachedImage> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeoutMs);
    try {
      let current = new URL(url);
      for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
        if (current.protocol !== 'http:' && current.protocol !== 'https:')
          throw new RemoteImageError(502, 'The image redirects to an address that is not http(s).');
        const response = await this.get(current, abort.signal);
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          current = new URL(response.headers.location, current);
          continue;
        }
        if (status < 200 || status >= 300) {
          response.resume();
          if (status === 404 || status === 410)
            throw new RemoteImageError(
              404,
              `The image's server has no such image (HTTP ${status}).`,
            );
          throw new RemoteImageError(502, `The image's server answered HTTP ${status}.`);
        }
        const body = await readBody(response, abort.signal);
        const type = sniffMediaType(body);
        if (!type || !isImage(type))
          throw new RemoteImageError(502, 'The answer is not a PNG, JPEG, GIF or WebP image.');
        return { type, body };
      }
      throw new RemoteImageError(502, 'The image redirects too many times.');
    } catch (error) {
      if (error instanceof RemoteImageError) throw error;
      if (abort.signal.aborted)
        throw new RemoteImageError(502, 'The image\u2019s server did not answer in time.');
      throw new RemoteImageError(502, 'The image could not be fetched.');
    } finally {
      clearTimeout(timer);
    }
  }

  private async get(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
    let target;
    try {
      target = await resolveOutboundTarget(url.hostname, this.policy);
    } catch (error) {
      if (error instanceof OutboundRefusedError)
        throw new RemoteImageError(502, 'The image is not on a public internet address.');
      throw new RemoteImageError(502, 'The image\u2019s server could not be found.');
    }
    const options: RequestOptions = {
      method: 'GET',
      lookup: pinnedLookup(target),
      signal,
      // Nothing of the customer: no cookie, no referrer, no forwarded address.
      headers: {
        'User-Agent': USER_AGENT,
        Accept: 'image/png,image/jpeg,image/gif,image/webp;q=0.9',
      },
    };
    return new Promise((resolve, reject) => {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, options, resolve);
      req.on('error', reject);
      req.end();
    });
  }
}

/** The body, refused (and the connection closed) as soon as it passes the size cap. */
function readBody(response: IncomingMessage, signal: AbortSignal): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_REMOTE_IMAGE_BYTES) {
    response.destroy();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => response.destroy(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REMOTE_IMAGE_BYTES) {
        response.destroy();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', reject);
    response.on('close', () => {
      signal.removeEventListener('abort', onAbort);
      if (!response.complete) reject(new Error('the answer was cut short'));
    });
  });
}

const tooLarge = () =>
  new RemoteImageError(502, `The image is larger than ${MAX_REMOTE_IMAGE_BYTES} bytes.`);
