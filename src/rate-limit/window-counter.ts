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

/** Where the rate-limit headers go: an HTTP response, or a plain record (rateLimitHeaders). */
export interface HeaderTarget {
  setHeader(name: string, value: string): unknown;
}

interface PolicyText {
  limit: number;
  /** `"caller";q=3000;w=60`, a member of RateLimit-Policy. */
  member: string;
  /** The limit as X-RateLimit-Limit says it. */
  limitText: string;
}

/**
 * The rate-limit headers of an answer: the IETF draft's `RateLimit-Policy` (every budget the
 * request counted against) and `RateLimit` (the one closest to its end), and the
 * `X-RateLimit-Limit` / `-Remaining` / `-Reset` (epoch seconds) AfterShip and GitHub send,
 * of that same budget. Set on every answer: what only changes with the configuration (each
 * policy's text, its limit) or once a window (the reset) is composed once, not per request.
 */
export class RateLimitHeaders {
  private readonly policies = new Map<string, PolicyText>();
  private resetAt = Number.NaN;
  private resetText = '';

  constructor(private readonly windowSeconds: number) {}

  write(target: HeaderTarget, budgets: readonly CountedBudget[], now: number): void {
    if (budgets.length === 0) return;
    let tightest = budgets[0];
    let policy = this.policyText(tightest).member;
    for (let i = 1; i < budgets.length; i++) {
      const b = budgets[i];
      policy += `, ${this.policyText(b).member}`;
      if (remaining(b) < remaining(tightest)) tightest = b;
    }
    const left = String(remaining(tightest));
    const resetSeconds = Math.max(0, Math.ceil((tightest.hit.resetAt - now) / 1000));
    target.setHeader('RateLimit-Policy', policy);
    target.setHeader('RateLimit', `"${tightest.policy}";r=${left};t=${resetSeconds}`);
    target.setHeader('X-RateLimit-Limit', this.policyText(tightest).limitText);
    target.setHeader('X-RateLimit-Remaining', left);
    target.setHeader('X-RateLimit-Reset', this.resetTextOf(tightest.hit.resetAt));
  }

  private policyText(budget: CountedBudget): PolicyText {
    const known = this.policies.get(budget.policy);
    if (known && known.limit === budget.hit.limit) return known;
    const text = {
      limit: budget.hit.limit,
      member: `"${budget.policy}";q=${budget.hit.limit};w=${this.windowSeconds}`,
      limitText: String(budget.hit.limit),
    };
    this.policies.set(budget.policy, text);
    return text;
  }

  private resetTextOf(resetAt: number): string {
    if (resetAt !== this.resetAt) {
      this.resetText = String(Math.ceil(resetAt / 1000));
      this.resetAt = resetAt;
    }
    return this.resetText;
  }
}

function remaining(b: CountedBudget): number {
  return Math.max(0, b.hit.limit - b.hit.used);
}

/** The headers RateLimitHeaders sets, as a record. */
export function rateLimitHeaders(
  budgets: readonly CountedBudget[],
  windowSeconds: number,
  now: number,
): Record<string, string> {
  const headers: Record<string, string> = {};
  new RateLimitHeaders(windowSeconds).write(
    { setHeader: (name, value) => (headers[name] = value) },
    budgets,
    now,
  );
  return headers;
}
