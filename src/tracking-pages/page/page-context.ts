import type { Request } from 'express';
import { DEFAULT_TIME_ZONE, timeZoneOf } from './dates';
import { negotiateLanguage } from './i18n/language';
import type { PageContext } from './shipment-page.service';

/**
 * Language and time zone of a page request: `lang` and `tz` from the query (or, for form
 * posts, the body), Accept-Language, the page's default language.
 */
export function pageContextOf(req: Request, pageDefaultLanguage: unknown): PageContext {
  return pageContextFrom(pageRequestOf(req), pageDefaultLanguage);
}

/** The page request of a plain route. */
export function pageRequestOf(req: Request): PageRequest {
  return {
    query: req.query,
    body: req.method === 'POST' ? req.body : undefined,
    acceptLanguage: req.get('accept-language'),
    origin: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
  };
}

/** What a page request says about its language and zone (declared actions have no `req`). */
export interface PageRequest {
  query: Readonly<Record<string, unknown>>;
  /** A form post's body: its `lang` and `tz` win over the query's. */
  body?: unknown;
  acceptLanguage?: string;
  origin: string;
}

export function pageContextFrom(request: PageRequest, pageDefaultLanguage: unknown): PageContext {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const pick = (name: string) =>
    typeof body[name] === 'string' ? body[name] : request.query[name];
  const tz = timeZoneOf(pick('tz'));
  return {
    lang: negotiateLanguage({
      query: pick('lang'),
      acceptLanguage: request.acceptLanguage,
      pageDefault: pageDefaultLanguage,
    }),
    timeZone: tz ?? DEFAULT_TIME_ZONE,
    tzFixed: tz !== null,
    origin: request.origin.endsWith('://') ? `${request.origin}localhost` : request.origin,
  };
}

/** `?lang=..[&tz=..]` keeping the page's language and, when the link named one, its zone. */
export function contextQuery(ctx: PageContext, extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    lang: ctx.lang,
    ...(ctx.tzFixed ? { tz: ctx.timeZone } : {}),
    ...extra,
  }).toString();
}
