import { Injectable } from '@nestjs/common';
import { OutboundGetError, outboundGet } from '../../common/outbound/outbound-get';
import type { OutboundPolicy } from '../../common/outbound/outbound-target';
import { AppConfig } from '../../config/app-config';
import { CredentialsCipher } from '../../credentials/credentials-cipher';
import { ApiError, NotFoundError } from '../../common/errors/api-errors';
import { isImage, sniffMediaType } from '../../media/sniff-media-type';
import {
  ImageCache,
  RecentFailures,
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
 * (never SVG). Answers are cached in process (LRU, bounded), failures for 5 minutes, and
 * concurrent requests for one URL share a fetch.
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
  /** Failed fetches, answered again for 5 minutes without asking the shop's server. */
  readonly failures = new RecentFailures<RemoteImageError>({ maxEntries: 1000, ttlMs: 5 * 60_000 });
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
    const failed = this.failures.get(accepted);
    if (failed) throw failed;
    let pending = this.inFlight.get(accepted);
    if (!pending) {
      pending = this.fetch(accepted)
        .then(
          (image) => {
            this.cache.set(accepted, image);
            return image;
          },
          (error: unknown) => {
            if (error instanceof RemoteImageError) this.failures.set(accepted, error);
            throw error;
          },
        )
        .finally(() => this.inFlight.delete(accepted));
      this.inFlight.set(accepted, pending);
    }
    return pending;
  }

  private async fetch(url: string): Promise<CachedImage> {
    let body: Buffer;
    try {
      ({ body } = await outboundGet(url, {
        policy: this.policy,
        // Nothing of the customer: no cookie, no referrer, no forwarded address.
        headers: {
          'User-Agent': USER_AGENT,
          Accept: 'image/png,image/jpeg,image/gif,image/webp;q=0.9',
        },
        maxRedirects: MAX_REDIRECTS,
        maxBytes: MAX_REMOTE_IMAGE_BYTES,
        timeoutMs: this.timeoutMs,
      }));
    } catch (error) {
      if (!(error instanceof OutboundGetError)) throw error;
      throw remoteImageError(error);
    }
    const type = sniffMediaType(body);
    if (!type || !isImage(type))
      throw new RemoteImageError(502, 'The answer is not a PNG, JPEG, GIF or WebP image.');
    return { type, body };
  }
}

/** A failed fetch as the proxy answers it: 404 when the shop has no such image, else 502. */
function remoteImageError(error: OutboundGetError): RemoteImageError {
  switch (error.reason) {
    case 'status':
      return error.status === 404 || error.status === 410
        ? new RemoteImageError(404, `The image's server has no such image (HTTP ${error.status}).`)
        : new RemoteImageError(502, `The image's server answered HTTP ${error.status}.`);
    case 'refused':
      return new RemoteImageError(502, 'The image is not on a public internet address.');
    case 'unresolved':
      return new RemoteImageError(502, 'The image\u2019s server could not be found.');
    case 'not_http':
      return new RemoteImageError(502, 'The image redirects to an address that is not http(s).');
    case 'redirects':
      return new RemoteImageError(502, 'The image redirects too many times.');
    case 'too_large':
      return new RemoteImageError(502, `The image is larger than ${MAX_REMOTE_IMAGE_BYTES} bytes.`);
    case 'timeout':
      return new RemoteImageError(502, 'The image\u2019s server did not answer in time.');
    default:
      return new RemoteImageError(502, 'The image could not be fetched.');
  }
}
