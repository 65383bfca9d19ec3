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
      'Public, for the `<img>` elements of tracking pages: `signature` is the HMAC the page signed `url` with, so only images a page shows are fetched (a missing or wrong signature is a 404, nothing fetched). The image is fetched from public addresses only, within OUTBOUND_HTTP_TIMEOUT_MS, at most 5 MB, with no data of the visitor, and answered only when its bytes are a PNG, JPEG, GIF or WebP image, with that type, `X-Content-Type-Options: nosniff` and `Cache-Control: public, max-age=86400`; answers are cached in process. 404 when the shop\u2019s server has no such image, 502 for any other failure (not an image, too large, too slow, unreachable or private address).',
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
      headers: {
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'public, max-age=86400',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cross-Origin-Resource-Policy': 'same-origin',
      },
    };
  }
}
