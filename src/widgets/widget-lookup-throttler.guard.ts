import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../hydra/errors/api-errors';

/** Lookups one client address may make through one widget per window. */
export const WIDGET_LOOKUPS_PER_WINDOW = 30;
export const WIDGET_LOOKUP_WINDOW_MS = 60_000;
/** Above this many tracked keys, expired windows are dropped before counting. */
const PRUNE_ABOVE = 10_000;

/**
 * Fixed-window rate limit of public widget lookups, per widget and client address: a visitor
 * types a few numbers; a scraper guessing tracking numbers (and filling the widget's log) is
 * stopped with 429. Counters live in this process's memory: each node enforces its own budget.
 */
@Injectable()
export class WidgetLookupThrottlerGuard implements CanActivate {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  /** The clock; tests replace it. */
  now: () => number = Date.now;

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const key = `${String(req.params.id)}|${req.ip ?? req.socket.remoteAddress ?? ''}`;
    this.hit(key);
    return true;
  }

  /** Counts one lookup for `key`; throws 429 with Retry-After once the budget is spent. */
  hit(key: string): void {
    const now = this.now();
    if (this.windows.size > PRUNE_ABOVE) {
      for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    }
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + WIDGET_LOOKUP_WINDOW_MS };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count > WIDGET_LOOKUPS_PER_WINDOW) {
      throw new ApiError(429, 'Too many lookups; retry later.', {
        'Retry-After': String(Math.max(1, Math.ceil((window.resetAt - now) / 1000))),
      });
    }
  }
}
