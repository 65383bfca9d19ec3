import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access } from '../../access/access.decorator';
import { RemoteImages } from './remote-images';

/**
 * The tracking page's image proxy. It answers bytes, not a resource, so it is a plain route
 * (like /media/files), public: the signature made while rendering a page is the credential.
 */
@Controller()
export class ImageProxyController {
  constructor(private readonly images: RemoteImages) {}

  @Access('public')
  @ApiTags('TrackingSite')
  @ApiOperation({
    summary: 'Shows a remote image of a tracking page (a shop\u2019s product picture or logo).',
    description:
      'Public, for the `<img>` elements of tracking pages: `signature` is the HMAC the page signed `url` with, so only images a page shows are fetched (a missing or wrong signature is a 404, nothing fetched). The image is fetched from public addresses only, within OUTBOUND_HTTP_TIMEOUT_MS, at most 5 MB, with no data of the visitor, and answered only when its bytes are a PNG, JPEG, GIF or WebP image, with that type, `X-Content-Type-Options: nosniff` and `Cache-Control: public, max-age=86400`; answers are cached in process. 404 when the shop\u2019s server has no such image, 502 for any other failure (not an image, too large, too slow, unreachable or private address).',
  })
  @Get('/public/images/:signature')
  async image(
    @Param('signature') signature: string,
    @Query('url') url: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const image = await this.images.image(signature, url);
    res.status(200);
    res.setHeader('Content-Type', image.type);
    res.setHeader('Content-Length', String(image.body.length));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.end(image.body);
  }
}
