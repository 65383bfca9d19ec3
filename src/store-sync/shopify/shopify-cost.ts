import { SHOPIFY_SINGLE_QUERY_LIMIT } from './shopify-constants';

/** `extensions.cost.throttleStatus` of an answer [official: rate limits, "Determining query cost"]. */
export interface ThrottleStatus {
  readonly maximumAvailable: number;
  readonly currentlyAvailable: number;
  readonly restoreRate: number;
}

/** `extensions.cost`, as far as it can be read; null when an answer has none. */
export interface QueryCost {
  readonly requested: number;
  readonly actual: number | null;
  readonly throttle: ThrottleStatus | null;
}

export function readQueryCost(extensions: unknown): QueryCost | null {
  const cost = (extensions as { cost?: Record<string, unknown> } | null | undefined)?.cost;
  if (!cost || typeof cost.requestedQueryCost !== 'number') return null;
  const status = cost.throttleStatus as Record<string, unknown> | undefined;
  const throttle =
    status &&
    typeof status.maximumAvailable === 'number' &&
    typeof status.currentlyAvailable === 'number' &&
    typeof status.restoreRate === 'number' &&
    status.restoreRate > 0
      ? {
          maximumAvailable: status.maximumAvailable,
          currentlyAvailable: status.currentlyAvailable,
          restoreRate: status.restoreRate,
        }
      : null;
  return {
    requested: cost.requestedQueryCost,
    actual: typeof cost.actualQueryCost === 'number' ? cost.actualQueryCost : null,
    throttle,
  };
}

/**
 * Shopify's leaky bucket as the client last saw it: what each answer reported, refilled at the
 * restore rate since. Before a query it says how long to wait until the bucket holds the
 * query's requested cost, so the client waits exactly as long as needed instead of being
 * THROTTLED, and after a THROTTLED answer how long until a retry can pass.
 */
export class ShopifyCostBucket {
  private status: ThrottleStatus | null = null;
  private seenAt = 0;

  observe(status: ThrottleStatus | null, at: number): void {
    if (!status) return;
    this.status = status;
    this.seenAt = at;
  }

  get known(): ThrottleStatus | null {
    return this.status;
  }

  /** Points available at `now` (Infinity before any answer). */
  available(now: number): number {
    if (!this.status) return Number.POSITIVE_INFINITY;
    const restored = (Math.max(0, now - this.seenAt) / 1000) * this.status.restoreRate;
    return Math.min(this.status.maximumAvailable, this.status.currentlyAvailable + restored);
  }

  /** Ms until the bucket holds `cost` points; 0 when it does (or nothing is known). */
  delayFor(cost: number, now: number): number {
    if (!this.status) return 0;
    const needed = Math.min(cost, this.status.maximumAvailable) - this.available(now);
    return needed <= 0 ? 0 : Math.ceil((needed / this.status.restoreRate) * 1000);
  }
}

/** Orders per page before any answer told the cost of one. */
export const INITIAL_ORDER_PAGE = 10;
/** Shopify's largest `first`. */
export const MAX_ORDER_PAGE = 250;
/** Longest refill one page may need: larger pages make a stopped run lose more work. */
export const MAX_PAGE_REFILL_SECONDS = 10;

/**
 * Orders per page from the cost of the last page (`requested` for `first` orders): as many as
 * fit in the most a query may cost, which is the single-query limit, the bucket's size and
 * what the bucket restores in MAX_PAGE_REFILL_SECONDS, whichever is least. The bucket then
 * always holds a whole page after its refill, so throughput is the restore rate (the bucket's
 * own minimum) and never a THROTTLED round trip. The single-query limit is Shopify's
 * documented 1 000 unless a MAX_COST_EXCEEDED answer named another. The cost per order is taken as
 * `requested / first`, which counts the connection's own cost in and so errs on the safe side.
 */
export function orderPageSize(
  last: { readonly first: number; readonly requested: number } | null,
  throttle: ThrottleStatus | null,
  singleQueryLimit: number = SHOPIFY_SINGLE_QUERY_LIMIT,
): number {
  if (!last || last.first <= 0 || last.requested <= 0) return INITIAL_ORDER_PAGE;
  const budget = Math.min(
    singleQueryLimit,
    throttle?.maximumAvailable ?? SHOPIFY_SINGLE_QUERY_LIMIT,
    throttle ? throttle.restoreRate * MAX_PAGE_REFILL_SECONDS : SHOPIFY_SINGLE_QUERY_LIMIT,
  );
  const perOrder = last.requested / last.first;
  return Math.max(1, Math.min(MAX_ORDER_PAGE, Math.floor(budget / perOrder)));
}
