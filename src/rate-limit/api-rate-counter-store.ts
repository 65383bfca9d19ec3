import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';
import type { PendingCount } from './window-counter';

/**
 * The api_rate_counter table's SQL: one row per budget key and fixed window, to which every
 * node adds its counts in one statement per flush; the answer is each key's shared total.
 */
@Injectable()
export class ApiRateCounterStore {
  /** Adds the counts and answers the totals, in the order given. */
  async add(
    runner: SqlRunner,
    counts: readonly PendingCount[],
    windowMs: number,
  ): Promise<number[]> {
    if (counts.length === 0) return [];
    const rows = await query<{ ord: number; hits: string }>(
      runner,
      `WITH given AS (
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])
                  WITH ORDINALITY AS g(key, window_start, hits, ord)),
       added AS (
         INSERT INTO api_rate_counter AS c (key, window_start, hits, expires_at)
         SELECT key, window_start, hits, window_start + $4::bigint FROM given
          ORDER BY key, window_start
         ON CONFLICT (key, window_start) DO UPDATE SET hits = c.hits + EXCLUDED.hits
         RETURNING c.key, c.window_start, c.hits)
       SELECT g.ord::int AS ord, a.hits::text AS hits
         FROM given g JOIN added a ON a.key = g.key AND a.window_start = g.window_start
        ORDER BY g.ord`,
      [
        counts.map((c) => c.key),
        counts.map((c) => c.windowStart),
        counts.map((c) => c.hits),
        windowMs,
      ],
    );
    return rows.map((r) => Number(r.hits));
  }

  /** Deletes the counters of windows that ended before `now` (epoch ms); answers how many. */
  async purge(runner: SqlRunner, now: number): Promise<number> {
    const rows = await query<{ n: number }>(
      runner,
      `WITH gone AS (DELETE FROM api_rate_counter WHERE expires_at < $1::bigint RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [now],
    );
    return rows[0]?.n ?? 0;
  }
}
