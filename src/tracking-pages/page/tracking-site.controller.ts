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

const PAGE_WORDS =
  'An HTML page in the visitor\u2019s language (`?lang=`, else Accept-Language, else the page\u2019s default) and time zone (`?tz=`), with a strict Content-Security-Policy carrying a nonce of its own, never cached. An unknown or disabled one is the 404 page, in the visitor\u2019s language.';

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
      'Public, for the home\u2019s form (`application/x-www-form-urlencoded`: tracking number with e-mail or order number). A match redirects (303) to the parcel\u2019s page; otherwise the home again with one neutral message (200 not found, 400 a body that is not the form\u2019s, 422 incomplete or bad values), so it never tells whether a parcel exists. Beyond the search budget of the page and the visitor\u2019s address: 429 with Retry-After. An unknown page is the 404 page.',
    input: HomeSearchInput,
    form: true,
    output: { oneOf: { html: true, redirect: true } },
    responses: {
      200: {
        description: 'The home again, saying nothing was found (or why the search failed).',
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
