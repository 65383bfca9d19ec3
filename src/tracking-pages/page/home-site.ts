import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MESSAGES } from './i18n/messages';
import { homeSearchValues, isHomeSearchBody, parseHomeSearch } from './home-search';
import { HomeSearchService, type HomePage } from './home-search.service';
import { brandOf } from './page-brand';
import type { HtmlPage } from '../../hydra/actions/action-result';
import {
  contextQuery,
  pageContextFrom,
  pageContextOf,
  pageRequestOf,
  type PageRequest,
} from './page-context';
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

  /** POST: redirect (303) to the parcel's page, or the form again with one neutral message. */
  async submit(req: Request, res: Response, page: HomePage, action: string): Promise<void> {
    const ctx = pageContextOf(req, await this.pages.defaultLanguage(page.id));
    const m = MESSAGES[ctx.lang];
    if (!isHomeSearchBody(req.body))
      return this.render(res, 400, page, action, ctx, m.searchIncomplete, homeSearchValues({}));
    const body = req.body;
    const values = homeSearchValues(body);
    const wait = await this.search.limited(page, req.ip ?? req.socket.remoteAddress ?? '');
    if (wait !== null) {
      res.setHeader('Retry-After', String(wait));
      return this.render(res, 429, page, action, ctx, m.tooManyAttempts, values);
    }
    const query = parseHomeSearch(body);
    if (!query) return this.render(res, 422, page, action, ctx, m.searchIncomplete, values);
    const hash = await this.search.find(page, query);
    // Unknown order, wrong e-mail, other workspace: one answer, so nothing is learnt.
    if (!hash) return this.render(res, 200, page, action, ctx, m.searchNotFound, values);
    res.redirect(303, `/t/${encodeURIComponent(hash)}?${contextQuery(ctx)}`);
  }

  private async render(
    res: Response,
    status: number,
    page: HomePage,
    action: string,
    ctx: PageContext,
    message: string | null,
    values: ReturnType<typeof homeSearchValues>,
  ): Promise<void> {
    sendPage(res, await this.page(status, page, action, ctx, message, values));
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
  notFound(req: Request, res: Response): void {
    sendPage(res, this.notFoundPage(pageRequestOf(req)));
  }

  notFoundPage(request: PageRequest): HtmlPage {
    const ctx = pageContextFrom(request, null);
    const m = MESSAGES[ctx.lang];
    const brand = brandOf({
      builder: {},
      pageTitle: null,
      workspace: { title: '', logoPath: null },
      ownOrigins: [],
      defaultTitle: m.defaultTitle,
    });
    return this.renderer.page(404, 'not-found', {
      lang: ctx.lang,
      timeZone: ctx.timeZone,
      tzFixed: ctx.tzFixed,
      pageTitle: m.linkNotFoundTitle,
      brand,
      m,
      languages: languageLinks(ctx.lang, (lang) => `?lang=${lang}`),
      heading: m.linkNotFoundTitle,
      message: m.linkNotFound,
    });
  }
}
