import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MESSAGES } from './i18n/messages';
import {
  homeSearchValues,
  isHomeSearchBody,
  parseHomeSearch,
  type HomeSearchValues,
} from './home-search';
import { HomeSearchService, type HomePage } from './home-search.service';
import { brandOf } from './page-brand';
import { PageAnswer, RedirectAnswer, type HtmlPage } from '../../hydra/actions/action-result';
import { contextQuery, pageContextFrom, pageRequestOf, type PageRequest } from './page-context';
import { PageRenderer, sendPage } from './page-renderer';
import { languageLinks } from './shipment-page.model';
import { ShipmentPageService, type PageContext } from './shipment-page.service';

/**
 * A tracking page's home (`/track/{subdomain}`, or `/` on its subdomain host or verified
 * custom domain): the search form, and the search it posts (to `/track/{subdomain}`).
 */
@Injectable()
export class HomeSite {
  constructor(
    private readonly search: HomeSearchService,
    private readonly pages: ShipmentPageService,
    private readonly renderer: PageRenderer,
  ) {}

  pageAt(where: { subdomain?: string; domain?: string }): Promise<HomePage | null> {
    return this.search.pageAt(where);
  }

  async show(req: Request, res: Response, page: HomePage, action: string): Promise<void> {
    sendPage(res, await this.homePage(pageRequestOf(req), page, action));
  }

  /** The home with its empty search form. */
  async homePage(request: PageRequest, page: HomePage, action: string): Promise<HtmlPage> {
    const ctx = pageContextFrom(request, await this.pages.defaultLanguage(page.id));
    return this.page(200, page, action, ctx, null, homeSearchValues({}));
  }

  /**
   * The home's search (a form post): a redirect (303) to the parcel's page, or the form again
   * with one neutral message. `ip`: the visitor's address, for the search budget.
   */
  async submit(
    request: PageRequest,
    ip: string,
    page: HomePage,
    action: string,
  ): Promise<PageAnswer | RedirectAnswer> {
    const ctx = pageContextFrom(request, await this.pages.defaultLanguage(page.id));
    const m = MESSAGES[ctx.lang];
    const again = async (
      status: number,
      message: string,
      values: HomeSearchValues,
      headers: Record<string, string> = {},
    ) => {
      const html = await this.page(status, page, action, ctx, message, values);
      return new PageAnswer({ ...html, headers: { ...html.headers, ...headers } });
    };
    const body = request.body;
    if (!isHomeSearchBody(body)) return again(400, m.searchIncomplete, homeSearchValues({}));
    const values = homeSearchValues(body);
    const wait = await this.search.limited(page, ip);
    if (wait !== null)
      return again(429, m.tooManyAttempts, values, { 'Retry-After': String(wait) });
    const query = parseHomeSearch(body);
    if (!query) return again(422, m.searchIncomplete, values);
    const hash = await this.search.find(page, query);
    // Unknown order, wrong e-mail, other workspace: one answer, so nothing is learnt.
    if (!hash) return again(200, m.searchNotFound, values);
    return new RedirectAnswer({
      url: `/t/${encodeURIComponent(hash)}?${contextQuery(ctx)}`,
      status: 303,
    });
  }

  private async page(
    status: number,
    page: HomePage,
    action: string,
    ctx: PageContext,
    message: string | null,
    values: ReturnType<typeof homeSearchValues>,
  ): Promise<HtmlPage> {
    const m = MESSAGES[ctx.lang];
    const brand = await this.pages.brand(page.id, ctx);
    return this.renderer.page(status, 'home', {
      lang: ctx.lang,
      timeZone: ctx.timeZone,
      tzFixed: ctx.tzFixed,
      pageTitle: brand.title,
      brand,
      m,
      languages: languageLinks(ctx.lang, (lang) => `${action}?lang=${lang}`),
      action: `${action}?${contextQuery(ctx)}`,
      message,
      values,
    });
  }

  /** The page for unknown links and homes, in the visitor's language, unbranded. */
  notFoundPage(request: PageRequest): HtmlPage {
    const m = MESSAGES[pageContextFrom(request, null).lang];
    return this.messagePage(request, 404, m.linkNotFoundTitle, m.linkNotFound);
  }

  /** A review refused for its link's budget: 429 with Retry-After, in the visitor's language. */
  reviewLimitedPage(request: PageRequest, retryAfterSeconds: number): HtmlPage {
    const m = MESSAGES[pageContextFrom(request, null).lang];
    const page = this.messagePage(request, 429, m.reviewLimitedTitle, m.reviewLimited);
    return { ...page, headers: { ...page.headers, 'Retry-After': String(retryAfterSeconds) } };
  }

  private messagePage(
    request: PageRequest,
    status: number,
    heading: string,
    message: string,
  ): HtmlPage {
    const ctx = pageContextFrom(request, null);
    const m = MESSAGES[ctx.lang];
    const brand = brandOf({
      builder: {},
      pageTitle: null,
      workspace: { title: '', logoPath: null },
      ownOrigins: [],
      defaultTitle: m.defaultTitle,
    });
    return this.renderer.page(status, 'not-found', {
      lang: ctx.lang,
      timeZone: ctx.timeZone,
      tzFixed: ctx.tzFixed,
      pageTitle: heading,
      brand,
      m,
      languages: languageLinks(ctx.lang, (lang) => `?lang=${lang}`),
      heading,
      message,
    });
  }
}
