import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Principal } from '../../access/principal';
import { Public } from '../../access/public.decorator';
import type { ActionContext } from '../../hydra/actions/action-declaration';
import { Action } from '../../hydra/actions/action.decorator';
import type { HtmlPage } from '../../hydra/actions/action-result';
import { NotFoundError } from '../../hydra/errors/api-errors';
import { TrackingPageLinksService } from '../tracking-page-links.service';
import { HomeSite } from './home-site';
import { pageContextFrom, type PageRequest } from './page-context';
import { PageRenderer } from './page-renderer';
import { ShipmentPageService } from './shipment-page.service';

const REVIEW_OUTCOMES = new Set(['thanks', 'invalid']);

const PAGE_WORDS =
  'An HTML page in the visitor\u2019s language (`?lang=`, else Accept-Language, else the page\u2019s default) and time zone (`?tz=`), with a strict Content-Security-Policy carrying a nonce of its own, never cached. An unknown or disabled one is the 404 page, in the visitor\u2019s language.';

/** The page request of an action: its query string, Accept-Language and origin. */
function pageRequest(context: ActionContext): PageRequest {
  return {
    query: context.query,
    acceptLanguage: context.header('accept-language'),
    origin: context.origin,
  };
}

/**
 * The public tracking site, for browsers: a shipment's page behind its link (`/t/{hash}`;
 * clients that build their own page read the JSON at /public/tracking_page_links/{hash}) and
 * a tracking page's home with its search (`/track/{subdomain}`).
 */
@Controller()
export class TrackingSiteController {
  constructor(
    private readonly links: TrackingPageLinksService,
    private readonly pages: ShipmentPageService,
    private readonly home: HomeSite,
    private readonly renderer: PageRenderer,
  ) {}

  @Action({
    method: 'GET',
    path: '/t/:hash',
    summary: 'Shows a shipment\u2019s tracking page behind its link.',
    description: `Public: anyone holding the link. The page\u2019s brand, the shipment\u2019s status, progress and checkpoints, without contact data, and the review form when the page takes reviews (\`?review=thanks|invalid\` shows the form\u2019s outcome). ${PAGE_WORDS}`,
    output: { html: true },
    access: 'public',
    tags: ['TrackingSite'],
  })
  async shipment(_input: object, _principal: Principal | null, context: ActionContext) {
    const hash = context.params.hash;
    const request = pageRequest(context);
    const linked = await this.links.resolve(hash).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!linked) return this.home.notFoundPage(request);
    const builder = (linked.page.builder ?? {}) as { languageMenu?: { defaultLan?: unknown } };
    const ctx = pageContextFrom(request, builder.languageMenu?.defaultLan);
    const review = String(context.query.review ?? '');
    const model = await this.pages.shipmentPage(
      linked,
      hash,
      ctx,
      REVIEW_OUTCOMES.has(review) ? (review as 'thanks' | 'invalid') : null,
    );
    return this.renderer.page(200, 'shipment', model);
  }

  @Action({
    method: 'GET',
    path: '/track/:subdomain',
    summary: 'Shows a tracking page\u2019s home with its search form.',
    description: `Public. The home of the tracking page at \`subdomain\` (also served at \`/\` on its own host or verified custom domain): its brand and a form to find a parcel by tracking number and e-mail or order number, posting to \`POST /track/{subdomain}\`. ${PAGE_WORDS}`,
    output: { html: true },
    access: 'public',
    tags: ['TrackingSite'],
  })
  async homePage(
    _input: object,
    _principal: Principal | null,
    context: ActionContext,
  ): Promise<HtmlPage> {
    const request = pageRequest(context);
    const page = await this.home.pageAt({ subdomain: context.params.subdomain });
    if (!page) return this.home.notFoundPage(request);
    return this.home.homePage(request, page, `/track/${encodeURIComponent(page.subdomain)}`);
  }

  /**
   * The home's search: a redirect to the parcel's page or the form again (one route, two
   * answer kinds, from a browser's form), so it stays a plain route.
   */
  @Public()
  @Post('/track/:subdomain')
  @ApiOperation({
    summary: 'Searches a parcel from a tracking page\u2019s home.',
    description:
      'Public, for the home\u2019s form (`application/x-www-form-urlencoded`: tracking number with e-mail or order number). A match redirects (303) to the parcel\u2019s page; otherwise the home again with one neutral message (200 not found, 400 incomplete form, 422 bad values), so it never tells whether a parcel exists. Beyond the search budget of the page and the visitor\u2019s address: 429 with Retry-After. An unknown page is the 404 page.',
    tags: ['TrackingSite'],
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    required: true,
    schema: {
      type: 'object',
      properties: {
        by: { type: 'string', enum: ['trackingNumber', 'order'] },
        trackingNumber: { type: 'string', maxLength: 100 },
        orderNumber: { type: 'string', maxLength: 100 },
        contact: { type: 'string', description: 'The order\u2019s e-mail or phone number.' },
        lang: { type: 'string' },
        tz: { type: 'string' },
      },
    },
  })
  @ApiProduces('text/html')
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
