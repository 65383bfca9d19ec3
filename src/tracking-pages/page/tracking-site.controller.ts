import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../access/public.decorator';
import { NotFoundError } from '../../hydra/errors/api-errors';
import { TrackingPageLinksService } from '../tracking-page-links.service';
import { HomeSite } from './home-site';
import { pageContextOf } from './page-context';
import { PageRenderer } from './page-renderer';
import { ShipmentPageService } from './shipment-page.service';

const REVIEW_OUTCOMES = new Set(['thanks', 'invalid']);

/**
 * The public tracking site, for browsers: a shipment's page behind its link (`/t/{hash}`;
 * clients that build their own page read the JSON at /public/tracking_page_links/{hash}) and
 * a tracking page's home with its search (`/track/{subdomain}`).
 */
@Public()
@Controller()
export class TrackingSiteController {
  constructor(
    private readonly links: TrackingPageLinksService,
    private readonly pages: ShipmentPageService,
    private readonly home: HomeSite,
    private readonly renderer: PageRenderer,
  ) {}

  @Get('/t/:hash')
  async shipment(
    @Param('hash') hash: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const linked = await this.links.resolve(hash).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!linked) return this.home.notFound(req, res);
    const builder = (linked.page.builder ?? {}) as { languageMenu?: { defaultLan?: unknown } };
    const ctx = pageContextOf(req, builder.languageMenu?.defaultLan);
    const review = String(req.query.review ?? '');
    const model = await this.pages.shipmentPage(
      linked,
      hash,
      ctx,
      REVIEW_OUTCOMES.has(review) ? (review as 'thanks' | 'invalid') : null,
    );
    this.renderer.send(res, 200, 'shipment', model);
  }

  @Get('/track/:subdomain')
  async homePage(
    @Param('subdomain') subdomain: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const page = await this.home.pageAt({ subdomain });
    if (!page) return this.home.notFound(req, res);
    await this.home.show(req, res, page, `/track/${encodeURIComponent(page.subdomain)}`);
  }

  @Post('/track/:subdomain')
  async search(
    @Param('subdomain') subdomain: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const page = await this.home.pageAt({ subdomain });
    if (!page) return this.home.notFound(req, res);
    await this.home.submit(req, res, page, `/track/${encodeURIComponent(page.subdomain)}`);
  }
}
