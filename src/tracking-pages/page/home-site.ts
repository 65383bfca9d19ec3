import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MESSAGES } from './i18n/messages';
import { homeSearchValues, isHomeSearchBody, parseHomeSearch } from './home-search';
import { HomeSearchService, type HomePage } from './home-search.service';
import { brandOf } from './page-brand';
import { contextQuery, pageContextOf } from './page-context';
import { PageRenderer } from './page-renderer';
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
    const ctx = pageContextOf(req, await this.pages.defaultLanguage(page.id));
    await this.render(res, 200, page, action, ctx, null, homeSearchValues({}));
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
    const m = MESSAGES[ctx.lang];
    const brand = await this.pages.brand(page.id, ctx);
    this.renderer.send(res, status, 'home', {
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
    const ctx = pageContextOf(req, null);
    const m = MESSAGES[ctx.lang];
    const brand = brandOf({
      builder: {},
      pageTitle: null,
      workspace: { title: '', logoPath: null },
      ownOrigins: [],
      defaultTitle: m.defaultTitle,
    });
    this.renderer.send(res, 404, 'not-found', {
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
