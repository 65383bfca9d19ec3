import { Controller } from '@nestjs/common';
import type { Principal } from '../../access/principal';
import type { ActionContext } from '../../hydra/actions/action-declaration';
import { Action } from '../../hydra/actions/action.decorator';
import { PageAnswer, type HtmlPage } from '../../hydra/actions/action-result';
import { NotFoundError } from '../../common/errors/api-errors';
import { TrackingPageLinksService } from '../tracking-page-links.service';
import { HomeSite } from './home-site';
import { HomeSearchInput } from './home-search.input';
import { actionPageRequest, pageContextFrom } from './page-context';
import { PageRenderer } from './page-renderer';
import { ShipmentPageService } from './shipment-page.service';

const REVIEW_OUTCOMES = new Set(['thanks', 'invalid']);

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
    description:
      'The page’s brand, the shipment’s status, progress and checkpoints without contact data, and the review form when the page takes reviews, to anyone holding the link. An HTML page in the visitor’s language and time zone, never cached.',
    output: { html: true },
    access: 'public',
    tags: ['TrackingSite'],
  })
  async shipment(_input: object, _principal: Principal | null, context: ActionContext) {
    const hash = context.params.hash;
    const request = actionPageRequest(context);
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
    description:
      'The home of the tracking page at `subdomain` (also served at `/` on its own host or custom domain), with a form to find a parcel. An HTML page in the visitor’s language and time zone, never cached.',
    output: { html: true },
    access: 'public',
    tags: ['TrackingSite'],
  })
  async homePage(
    _input: object,
    _principal: Principal | null,
    context: ActionContext,
  ): Promise<HtmlPage> {
    const request = actionPageRequest(context);
    const page = await this.home.pageAt({ subdomain: context.params.subdomain });
    if (!page) return this.home.notFoundPage(request);
    return this.home.homePage(request, page, `/track/${encodeURIComponent(page.subdomain)}`);
  }

  @Action({
    method: 'POST',
    path: '/track/:subdomain',
    summary: 'Searches a parcel from a tracking page\u2019s home.',
    description:
      'The home’s form (tracking number with e-mail or order number): a match redirects (303) to the parcel’s page, anything else shows the home again with one neutral message. It never tells whether a parcel exists, within a search budget per page and visitor.',
    input: HomeSearchInput,
    form: true,
    output: { oneOf: { html: true, redirect: true } },
    responses: {
      200: {
        description:
          'The home’s form (tracking number with e-mail or order number): a match redirects (303) to the parcel’s page, anything else shows the home again with one neutral message. It never tells whether a parcel exists, within a search budget per page and visitor.',
        content: { 'text/html': { schema: { type: 'string' } } },
      },
      303: { description: 'The parcel\u2019s page (Location header).' },
    },
    access: 'public',
    tags: ['TrackingSite'],
  })
  async search(input: HomeSearchInput, _principal: Principal | null, context: ActionContext) {
    const request = actionPageRequest(context, input);
    const page = await this.home.pageAt({ subdomain: context.params.subdomain });
    if (!page) return new PageAnswer(this.home.notFoundPage(request));
    const action = `/track/${encodeURIComponent(page.subdomain)}`;
    return this.home.submit(request, context.ip, page, action);
  }
}
