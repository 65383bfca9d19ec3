import type { Request } from 'express';
import { DEFAULT_TIME_ZONE, timeZoneOf } from './dates';
import { negotiateLanguage } from './i18n/language';
import type { PageContext } from './shipment-page.service';

/**
 * Language and time zone of a page request: `lang` and `tz` from the query (or, for form
 * posts, the body), Accept-Language, the page's default language.
 */
export function pageContextOf(req: Request, pageDefaultLanguage: unknown): PageContext {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const pick = (name: string) =>
    req.method === 'POST' && typeof body[name] === 'string' ? body[name] : req.query[name];
  const tz = timeZoneOf(pick('tz'));
  return {
    lang: negotiateLanguage({
      query: pick('lang'),
      acceptLanguage: req.get('accept-language'),
      pageDefault: pageDefaultLanguage,
    }),
    timeZone: tz ?? DEFAULT_TIME_ZONE,
    tzFixed: tz !== null,
    origin: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
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
