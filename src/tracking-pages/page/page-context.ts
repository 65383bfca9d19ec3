import type { Request } from 'express';
import type { ActionContext } from '../../hydra/actions/action-declaration';
import { DEFAULT_TIME_ZONE, timeZoneOf } from './dates';
import { negotiateLanguage } from './i18n/language';
import type { PageContext } from './shipment-page.service';

/** The page request of a GET outside the declared actions (the custom-domain home). */
export function pageRequestOf(req: Request): PageRequest {
  return {
    query: req.query,
    acceptLanguage: req.get('accept-language'),
    origin: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
  };
}

/** The page request of a declared action; `body`: a form post's fields. */
export function actionPageRequest(context: ActionContext, body?: object): PageRequest {
  return {
    query: context.query,
    body,
    acceptLanguage: context.header('accept-language'),
    origin: context.origin,
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
