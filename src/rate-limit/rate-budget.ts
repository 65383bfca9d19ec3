import { Inject, Injectable } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { ApiError } from '../common/errors/api-errors';
import { RATE_LIMIT_STORAGE } from './rate-limit-storage.token';

export interface Budget {
  /** Counter family (the throttler name of the stored counters). */
  name: string;
  limit: number;
  windowMs: number;
}

/** Thrown when a budget is spent: 429 with Retry-After (seconds). */
export class RateLimited extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Too many attempts; retry later.',
  ) {
    super(429, message, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * Named budgets over the storage RATE_LIMIT_STORE selects (PostgreSQL by default: one budget
 * for every node), with @nestjs/throttler's blocking semantics: each hit counts for a window,
 * one beyond the limit blocks the key for a window. Keys are hashed, so e-mail addresses
 * used as keys are not stored in clear.
 */
@Injectable()
export class RateBudgets {
  constructor(@Inject(RATE_LIMIT_STORAGE) private readonly storage: BlockAwareStorage) {}

  /** Counts one hit of `key` against `budget`; throws RateLimited when over it. */
  async spend(budget: Budget, key: string, message?: string): Promise<void> {
    const { isBlocked, timeToBlockExpire } = await this.storage.increment(
      storedKeyOf(budget, key),
      budget.windowMs,
      budget.limit,
      budget.windowMs,
      budget.name,
    );
    if (isBlocked) throw new RateLimited(Math.max(1, timeToBlockExpire), message);
  }

  /**
   * Throws RateLimited while `key` is blocked on `budget`, counting nothing: for budgets spent
   * only on failures (a wrong password), checked before the attempt.
   */
  async assertOpen(budget: Budget, key: string, message?: string): Promise<void> {
    const seconds = await this.storage.blockedFor(storedKeyOf(budget, key), budget.name);
    if (seconds > 0) throw new RateLimited(seconds, message);
  }
}

/** A storage that can also tell how long a key stays blocked (both of RATE_LIMIT_STORE's). */
export interface BlockAwareStorage extends ThrottlerStorage {
  blockedFor(key: string, throttlerName: string): Promise<number>;
}

function storedKeyOf(budget: Budget, key: string): string {
  return `${budget.name}:${createHash('sha256').update(key).digest('hex')}`;
}
