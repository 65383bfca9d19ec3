import type { StorePageToken } from '../store-platform';

/**
 * Paging through "orders changed since T, oldest change first" on APIs that page by number
 * (WooCommerce, BigCommerce). Page N of such a listing shifts when an order already read
 * changes meanwhile (it moves to the end and every later order moves up one place), so asking
 * for page N+1 would skip one. Instead every page is the first page of a new listing:
 *
 * - `since` mode: orders changed at or after `since` (whole seconds, the stores' resolution).
 *   A full page moves `since` to its latest change; the ids read at exactly that second are
 *   `seen` and skipped (stores that can exclude ids are asked to, WooCommerce's `exclude`).
 * - `second` mode, when a full page made no progress (more orders share one second than a page
 *   holds, and the store cannot exclude the ones read): that second's orders by id, after the
 *   last id read (BigCommerce's `min_id`; `skip` counts them for stores with only an offset).
 *   Orders only ever leave a past second, so nothing moves in front of the position.
 */
export type ChangedPage =
  | { readonly mode: 'since'; readonly since: string; readonly seen: readonly string[] }
  | {
      readonly mode: 'second';
      readonly second: string;
      readonly afterId: string | null;
      readonly skip: number;
    };

/** Ids excluded in `since` mode before switching to `second` mode (URLs stay short). */
export const MAX_SEEN_IDS = 200;

export function firstChangedPage(since: Date): ChangedPage {
  return { mode: 'since', since: wholeSecond(since).toISOString(), seen: [] };
}

/** The page a token names (tokens travel as JSON), or the first page of the window. */
export function changedPageFromToken(token: StorePageToken | null, since: Date): ChangedPage {
  if (token?.mode === 'second' && typeof token.second === 'string')
    return {
      mode: 'second',
      second: token.second,
      afterId: typeof token.afterId === 'string' ? token.afterId : null,
      skip: typeof token.skip === 'number' && token.skip > 0 ? Math.floor(token.skip) : 0,
    };
  if (token?.mode === 'since' && typeof token.since === 'string')
    return {
      mode: 'since',
      since: token.since,
      seen: Array.isArray(token.seen)
        ? token.seen.filter((id): id is string => typeof id === 'string')
        : [],
    };
  return firstChangedPage(since);
}

export function changedPageToken(page: ChangedPage): StorePageToken {
  return page.mode === 'since'
    ? { mode: 'since', since: page.since, seen: [...page.seen] }
    : { mode: 'second', second: page.second, afterId: page.afterId, skip: page.skip };
}

/**
 * What a page the store answered means: the orders to import (a `since` listing drops orders
 * before its start and those already seen at it) and the next page, or null once the store
 * had less than a full page. `answered` is in the store's order.
 */
export function readChangedPage<T extends { readonly id: string; readonly updatedAt: Date }>(
  at: ChangedPage,
  answered: readonly T[],
  perPage: number,
): { fresh: T[]; next: ChangedPage | null } {
  const full = answered.length >= perPage;
  if (at.mode === 'second') {
    const next: ChangedPage = full
      ? {
          mode: 'second',
          second: at.second,
          afterId: answered[answered.length - 1].id,
          skip: at.skip + answered.length,
        }
      : {
          mode: 'since',
          since: new Date(Date.parse(at.second) + 1000).toISOString(),
          seen: [],
        };
    return { fresh: [...answered], next };
  }
  const since = Date.parse(at.since);
  const seen = new Set(at.seen);
  const fresh = answered.filter((o) => {
    const t = secondOf(o.updatedAt);
    return t > since || (t === since && !seen.has(o.id));
  });
  if (!full) return { fresh, next: null };
  const latest = Math.max(...answered.map((o) => secondOf(o.updatedAt)));
  if (latest > since) {
    const atLatest = answered.filter((o) => secondOf(o.updatedAt) === latest).map((o) => o.id);
    return {
      fresh,
      next: { mode: 'since', since: new Date(latest).toISOString(), seen: atLatest },
    };
  }
  const grown = [...seen, ...fresh.map((o) => o.id)];
  if (fresh.length > 0 && grown.length <= MAX_SEEN_IDS)
    return { fresh, next: { mode: 'since', since: at.since, seen: grown } };
  return { fresh, next: { mode: 'second', second: at.since, afterId: null, skip: 0 } };
}

/** Numeric ids compare as numbers (BigCommerce's `min_id` is "greater or equal"). */
export function idAfter(id: string | null): string | null {
  if (id === null) return null;
  return /^\d+$/.test(id) ? String(BigInt(id) + 1n) : id;
}

function secondOf(date: Date): number {
  return Math.floor(date.getTime() / 1000) * 1000;
}

function wholeSecond(date: Date): Date {
  return new Date(secondOf(date));
}

/**
 * The instant a `since` listing asks the store for: one second early, so the answer is the
 * same whether the store's filter is inclusive (BigCommerce's `min_date_modified`) or exclusive
 * (WooCommerce's `modified_after`); what is older than `since` is dropped by readChangedPage.
 */
export function changedQueryStart(page: Extract<ChangedPage, { mode: 'since' }>): Date {
  return new Date(Date.parse(page.since) - 1000);
}
