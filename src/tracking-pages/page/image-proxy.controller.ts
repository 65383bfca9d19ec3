import { Controller } from '@nestjs/common';
import type { Principal } from '../../access/principal';
import type { ActionContext } from '../../hydra/actions/action-declaration';
import { Action } from '../../hydra/actions/action.decorator';
import type { SentFile } from '../../hydra/actions/action-result';
import { Documented } from '../../hydra/validation/documented';
import { RemoteImages } from './remote-images';

/** `GET /public/images/{signature}`: the remote image's URL, read as sent (a bad one is a 404). */
export class ImageProxyInput {
  @Documented({
    type: 'string',
    required: true,
    description: 'The remote image, exactly as the page signed it.',
  })
  url?: unknown;
}

/** The raster types the proxy answers (sniffed from the bytes). */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/**
 * The tracking page's image proxy. Public: the signature made while rendering a page is the
 * credential.
 */
@Controller()
export class ImageProxyController {
  constructor(private readonly images: RemoteImages) {}

  @Action({
    method: 'GET',
    path: '/public/images/:signature',
    summary: 'Shows a remote image of a tracking page (a shop\u2019s product picture or logo).',
    description:
      'Public, for the `<img>` elements of tracking pages: `signature` is the HMAC the page signed `url` with for its workspace, so only images a page shows are fetched (a missing or wrong signature is a 404, nothing fetched). The image is fetched from public addresses only, with no data of the visitor, at most IMAGE_PROXY_MAX_FETCHES at once per node and IMAGE_PROXY_MAX_FETCHES_PER_WORKSPACE for one workspace\u2019s pages (a request waits up to IMAGE_PROXY_QUEUE_WAIT_MS for one, then 503 with Retry-After), and streamed when its first bytes prove a PNG, JPEG, GIF or WebP image (within OUTBOUND_HTTP_TIMEOUT_MS), with that type, `X-Content-Type-Options: nosniff` and `Cache-Control: public, max-age=86400`; at most 5 MB (beyond, the answer is cut off); images up to 1 MB are cached in process. Every failure (no such image, not an image, too large, too slow, unreachable or private address) is 502 `Image unavailable.`, whatever the other host did.',
    input: ImageProxyInput,
    output: { file: IMAGE_TYPES },
    tags: ['TrackingSite'],
    access: 'public',
  })
  async image(
    input: ImageProxyInput,
    _principal: Principal | null,
    context: ActionContext,
  ): Promise<SentFile> {
    const image = await this.images.image(context.params.signature, input.url);
    return {
      type: image.type,
      body: image.body,
      length: image.length,
      headers: {
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'public, max-age=86400',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cross-Origin-Resource-Policy': 'same-origin',
      },
    };
  }
}
