import { createHash } from 'node:crypto';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { SqlRunner } from '../database/query';
import { RateLimitCounterStore } from './rate-limit-counter-store';

/** Keys longer than this are stored as `sha256:<hex>` (bounded size, no raw long values). */
export const MAX_RAW_KEY_LENGTH = 128;

/** What `increment` answers (the package does not export the name). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

export interface PostgresThrottlerStorageOptions {
  /** Epoch milliseconds; unset: the database server's clock, the same for every node. */
  now?: () => number;
}

/** Counters deleted per statement by purgeExpired. */
const PURGE_BATCH = 5000;

/**
 * A ThrottlerStorage whose counters live in PostgreSQL (table `rate_limit_counter`), so every
 * node behind the load balancer spends the same budget. Each `increment` is a single atomic
 * statement with exactly the answers of @nestjs/throttler's in-memory ThrottlerStorageService
 * (`totalHits`; `timeToExpire` and `timeToBlockExpire` in seconds, rounded up; `ttl` and
 * `blockDuration` in milliseconds), timed by the database server's clock.
 */
export class PostgresThrottlerStorage implements ThrottlerStorage {
  constructor(
    private readonly db: SqlRunner,
    private readonly options: PostgresThrottlerStorageOptions = {},
    private readonly counters = new RateLimitCounterStore(),
  ) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const row = await this.counters.increment(this.db, {
      throttler: throttlerName,
      key: storedKey(key),
      ttl: Math.ceil(ttl),
      limit,
      now: this.options.now?.() ?? null,
      blockDuration: blockDuration > 0 ? Math.ceil(blockDuration) : 0,
    });
    return {
      totalHits: Number(row.last_total_hits),
      timeToExpire: Number(row.last_time_to_expire),
      isBlocked: row.last_blocked,
      timeToBlockExpire: Number(row.last_time_to_block_expire),
    };
  }

  /**
   * Seconds until the key's block ends (rounded up), or 0 when it is not blocked; counts
   * nothing (RateBudgets.assertOpen).
   */
  async blockedFor(key: string, throttlerName: string): Promise<number> {
    const now = this.options.now?.() ?? null;
    return (await this.counters.blockedFor(this.db, throttlerName, storedKey(key), now)) ?? 0;
  }

  /** Deletes the rows that no longer change any answer; returns how many. */
  async purgeExpired(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const n = await this.counters.purge(this.db, this.options.now?.() ?? null, PURGE_BATCH);
      deleted += n;
      if (n < PURGE_BATCH) return deleted;
    }
  }
}

/**
 * The key as stored: itself, or its SHA-256 when longer than MAX_RAW_KEY_LENGTH or holding a
 * NUL, which PostgreSQL text cannot (keys carry what clients send: a widget id, a client_id).
 */
export function storedKey(key: string): string {
  return key.length <= MAX_RAW_KEY_LENGTH && !key.includes('\u0000')
    ? key
    : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}
