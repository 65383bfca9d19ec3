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
      'For the `<img>` elements of tracking pages: `signature` is the HMAC the page signed `url` with, so only images a page shows are fetched. Answers PNG, JPEG, GIF or WebP bytes only, fetched from public addresses within a size, time and concurrency limit.',
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
