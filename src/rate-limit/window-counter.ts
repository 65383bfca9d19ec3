/**
 * Per-node counting of fixed-window budgets shared by every node (README "API conventions"):
 * a request is judged against what this node last read of the shared total plus what it
 * counted since, with no database round trip; the counts go to PostgreSQL in batches
 * (`drain` / `settled`), whose answer is the total of every node. A budget can thus be
 * overrun by what the other nodes admit within one flush interval, never more.
 */

export interface WindowHit {
  /** Whether the request fits the budget (then it was counted). */
  allowed: boolean;
  /** Requests counted in this window, this one included when allowed. */
  used: number;
  limit: number;
  /** Epoch milliseconds at which the window ends. */
  resetAt: number;
}

/** A key's counts waiting to be added to the shared counter. */
export interface PendingCount {
  key: string;
  windowStart: number;
  hits: number;
}

interface Entry {
  windowStart: number;
  /** The shared total as last read (every node, this one's flushed counts included). */
  shared: number;
  /** Counted here and being flushed now. */
  flushing: number;
  /** Counted here since the last flush began. */
  pending: number;
}

/** Entries kept at most (idle ones of past windows are dropped first). */
const MAX_ENTRIES = 100_000;

export class WindowCounter {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly windowMs: number) {}

  /** The start (epoch ms) of the window holding `now`: aligned, so every node agrees. */
  windowOf(now: number): number {
    return now - (now % this.windowMs);
  }

  /** Counts one request of `key` unless the budget is spent. */
  hit(key: string, limit: number, now: number): WindowHit {
    const windowStart = this.windowOf(now);
    let entry = this.entries.get(key);
    if (!entry || entry.windowStart !== windowStart) {
      // Counts of a window that ended before they were flushed no longer decide anything.
      entry = { windowStart, shared: 0, flushing: 0, pending: 0 };
      this.entries.set(key, entry);
      if (this.entries.size > MAX_ENTRIES) this.forgetIdle(windowStart);
    }
    const used = entry.shared + entry.flushing + entry.pending;
    const resetAt = windowStart + this.windowMs;
    if (used >= limit) return { allowed: false, used, limit, resetAt };
    entry.pending++;
    return { allowed: true, used: used + 1, limit, resetAt };
  }

  /** Takes the counts to flush; each must be answered by `settled` (or `failed`). */
  drain(): PendingCount[] {
    const out: PendingCount[] = [];
    for (const [key, entry] of this.entries) {
      if (entry.pending === 0) continue;
      out.push({ key, windowStart: entry.windowStart, hits: entry.pending });
      entry.flushing += entry.pending;
      entry.pending = 0;
    }
    return out;
  }

  /** The shared total of a flushed count, as the database answered it. */
  settled(count: PendingCount, total: number): void {
    const entry = this.entries.get(count.key);
    if (!entry || entry.windowStart !== count.windowStart) return;
    entry.flushing -= count.hits;
    entry.shared = Math.max(entry.shared, total);
  }

  /** A flush that did not reach the database: the counts wait for the next one. */
  failed(count: PendingCount): void {
    const entry = this.entries.get(count.key);
    if (!entry || entry.windowStart !== count.windowStart) return;
    entry.flushing -= count.hits;
    entry.pending += count.hits;
  }

  /** Entries of past windows with nothing left to flush. */
  forgetIdle(currentWindowStart: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.windowStart < currentWindowStart && entry.pending === 0 && entry.flushing === 0)
        this.entries.delete(key);
    }
  }
}

/** One budget a request was counted against, for the answer's headers. */
export interface CountedBudget {
  /** The policy's name in RateLimit-Policy: caller, team or address. */
  policy: string;
  hit: WindowHit;
}

/**
 * The rate-limit headers of an answer: the IETF draft's `RateLimit-Policy` (every budget the
 * request counted against) and `RateLimit` (the one closest to its end), and the
 * `X-RateLimit-Limit` / `-Remaining` / `-Reset` (epoch seconds) AfterShip and GitHub send,
 * of that same budget.
 */
export function rateLimitHeaders(
  budgets: readonly CountedBudget[],
  windowSeconds: number,
  now: number,
): Record<string, string> {
  if (budgets.length === 0) return {};
  const remaining = (b: CountedBudget) => Math.max(0, b.hit.limit - b.hit.used);
  const tightest = budgets.reduce((a, b) => (remaining(b) < remaining(a) ? b : a));
  const resetSeconds = Math.max(0, Math.ceil((tightest.hit.resetAt - now) / 1000));
  return {
    'RateLimit-Policy': budgets
      .map((b) => `"${b.policy}";q=${b.hit.limit};w=${windowSeconds}`)
      .join(', '),
    RateLimit: `"${tightest.policy}";r=${remaining(tightest)};t=${resetSeconds}`,
    'X-RateLimit-Limit': String(tightest.hit.limit),
    'X-RateLimit-Remaining': String(remaining(tightest)),
    'X-RateLimit-Reset': String(Math.ceil(tightest.hit.resetAt / 1000)),
  };
}
