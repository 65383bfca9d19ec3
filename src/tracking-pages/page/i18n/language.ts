import { PAGE_LANGUAGES, type PageLanguage } from './messages';

const SUPPORTED = new Set<string>(PAGE_LANGUAGES);

/** The page language of a tag (`pt-BR` -> `pt`), or null when the page does not speak it. */
export function pageLanguageOf(tag: unknown): PageLanguage | null {
  if (typeof tag !== 'string') return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  return SUPPORTED.has(primary) ? (primary as PageLanguage) : null;
}

/** Accept-Language ranges by preference (RFC 9110 12.5.4): q=0 dropped, ties in header order. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 32)
    .map((part, index) => {
      const [range, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)).find(Boolean);
      return { range: range.trim(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((r) => r.range !== '' && r.range !== '*' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((r) => r.range);
}

/**
 * The language a page is shown in: `?lang=` when the page speaks it, else the first
 * Accept-Language range it speaks, else the page's default (builder.languageMenu.defaultLan),
 * else English.
 */
export function negotiateLanguage(input: {
  query?: unknown;
  acceptLanguage?: string;
  pageDefault?: unknown;
}): PageLanguage {
  const fromQuery = pageLanguageOf(input.query);
  if (fromQuery) return fromQuery;
  for (const range of acceptedLanguages(input.acceptLanguage)) {
    const lang = pageLanguageOf(range);
    if (lang) return lang;
  }
  return pageLanguageOf(input.pageDefault) ?? 'en';
}
