import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Request } from 'express';
import { ApiError } from '../common/errors/api-errors';
import { RATE_LIMIT_STORAGE } from '../rate-limit/rate-limit.module';

/** Lookups one client address may make through one widget per window. */
export const WIDGET_LOOKUPS_PER_WINDOW = 30;
export const WIDGET_LOOKUP_WINDOW_MS = 60_000;
/** The throttler name the counters are stored under. */
export const WIDGET_LOOKUP_THROTTLER = 'widget-lookup';

/**
 * Rate limit of public widget lookups, per widget and client address: a visitor types a few
 * numbers; a scraper guessing tracking numbers (and filling the widget's log) is stopped with
 * 429 for a window. Counters live in the storage RATE_LIMIT_STORE selects (PostgreSQL by
 * default: one budget for all nodes), with @nestjs/throttler's semantics: each lookup counts
 * for a window; one beyond the budget blocks the key for a window.
 */
@Injectable()
export class WidgetLookupThrottlerGuard implements CanActivate {
  constructor(@Inject(RATE_LIMIT_STORAGE) private readonly storage: ThrottlerStorage) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    await this.hit(`${String(req.params.id)}|${req.ip ?? req.socket.remoteAddress ?? ''}`);
    return true;
  }

  /** Counts one lookup for `key` (widget|address); throws 429 with Retry-After when over budget. */
  async hit(key: string): Promise<void> {
    const { isBlocked, timeToBlockExpire } = await this.storage.increment(
      `${WIDGET_LOOKUP_THROTTLER}:${key}`,
      WIDGET_LOOKUP_WINDOW_MS,
      WIDGET_LOOKUPS_PER_WINDOW,
      WIDGET_LOOKUP_WINDOW_MS,
      WIDGET_LOOKUP_THROTTLER,
    );
    if (isBlocked) {
      throw new ApiError(429, 'Too many lookups; retry later.', {
        'Retry-After': String(Math.max(1, timeToBlockExpire)),
      });
    }
  }
}
