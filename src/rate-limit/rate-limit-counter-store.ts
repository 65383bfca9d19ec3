import { Injectable } from '@nestjs/common';
import { queryOne, type SqlRunner } from '../database/query';

/** The state a step starts from: SQL expressions, `n.now` being the step's time. */
interface StepInput {
  hits: string;
  expiresAt: string;
  blocked: string;
  blockExpiresAt: string;
}

/** Columns a step writes, in order (the answer of the call included, for RETURNING). */
const STATE_COLUMNS = [
  'hits',
  'expires_at',
  'blocked',
  'block_expires_at',
  'idle_at',
  'last_total_hits',
  'last_time_to_expire',
  'last_blocked',
  'last_time_to_block_expire',
].join(', ');

const DB_NOW_MS = `floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

/**
 * One `increment` of @nestjs/throttler 6.7's ThrottlerStorageService (throttler.service.js) as
 * a SELECT over the previous state, with $3 ttl (ms), $4 limit, $5 the clock (null: the
 * server's) and, when blocking, $6 blockDuration (ms). The library's steps, in its order:
 * - p: hits whose expiry has passed are dropped (a sliding log: each hit lives `ttl`);
 * - w: the window (`timeToExpire`) restarts at now + ttl once it has run out;
 * - blocking (blockDuration > 0): a hit counts unless the record is blocked; more than `limit`
 *   hits block it until now + blockDuration; once that has passed, the next call unblocks it
 *   and starts again from this one hit. `timeToBlockExpire` is reported as computed, also
 *   when not blocked (then zero or negative, as the library does);
 * - non-blocking (blockDuration <= 0): a hit counts while fewer than `limit` are live; else
 *   the call is refused (not recorded) until the oldest live hit expires. The record's block
 *   state is left as it was.
 * The library keeps the window and block per key and the hits per key and throttler; here all
 * of it is per (throttler, key), the same as long as a key is used by one throttler only (the
 * guard's keys contain the throttler's name).
 */
function step(input: StepInput, blocking: boolean): string {
  const path = blocking
    ? `SELECT h.h3 AS hits, b.b1 AND NOT h.reset AS blocked, b.be1 AS block_expires_at,
              cardinality(h.h3) AS total_hits, b.b1 AND NOT h.reset AS answer_blocked,
              ceil((b.be1 - o.now) / 1000.0)::bigint AS time_to_block_expire
         FROM (SELECT CASE WHEN o.blocked THEN p.h1
                           ELSE p.h1 || (o.now + $3::bigint) END AS h2) f
        CROSS JOIN LATERAL (
              SELECT o.blocked OR cardinality(f.h2) > $4::float8 AS b1,
                     CASE WHEN NOT o.blocked AND cardinality(f.h2) > $4::float8
                          THEN o.now + $6::bigint ELSE o.block_expires_at END AS be1) b
        CROSS JOIN LATERAL (
              SELECT b.b1 AND b.be1 <= o.now AS reset,
                     CASE WHEN b.b1 AND b.be1 <= o.now
                          THEN ARRAY[o.now + $3::bigint] ELSE f.h2 END AS h3) h`
    : `SELECT h.h2 AS hits, o.blocked, o.block_expires_at,
              cardinality(p.h1) + 1 AS total_hits, r.refused AS answer_blocked,
              CASE WHEN NOT r.refused THEN 0
                   WHEN cardinality(h.h2) = 0 THEN ceil((w.e1 - o.now) / 1000.0)::bigint
                   ELSE ceil(((SELECT min(x) FROM unnest(h.h2) x) - o.now) / 1000.0)::bigint
              END AS time_to_block_expire
         FROM (SELECT cardinality(p.h1) >= $4::float8 AS refused) r
        CROSS JOIN LATERAL (
              SELECT CASE WHEN r.refused THEN p.h1
                          ELSE p.h1 || (o.now + $3::bigint) END AS h2) h`;
  return `
    SELECT s.hits, w.e1, s.blocked, s.block_expires_at,
           greatest(w.e1, coalesce((SELECT max(x) FROM unnest(s.hits) x), 0),
                    CASE WHEN s.blocked THEN s.block_expires_at ELSE 0 END),
           s.total_hits, ceil((w.e1 - o.now) / 1000.0)::integer,
           s.answer_blocked, s.time_to_block_expire
      FROM (SELECT coalesce($5::bigint, ${DB_NOW_MS}) AS now) n
     CROSS JOIN LATERAL (
           SELECT n.now, ${input.hits} AS hits, ${input.expiresAt} AS expires_at,
                  ${input.blocked} AS blocked, ${input.blockExpiresAt} AS block_expires_at) o
     CROSS JOIN LATERAL (SELECT array(SELECT x FROM unnest(o.hits) x WHERE x > o.now) AS h1) p
     CROSS JOIN LATERAL (
           SELECT CASE WHEN o.expires_at > o.now THEN o.expires_at
                       ELSE o.now + $3::bigint END AS e1) w
     CROSS JOIN LATERAL (${path}) s`;
}

/** The whole increment: one INSERT ... ON CONFLICT DO UPDATE, atomic under concurrency. */
function incrementSql(blocking: boolean): string {
  // A new key starts as the library's new record: no hits, window from now, never blocked.
  const fresh = step(
    {
      hits: `'{}'::bigint[]`,
      expiresAt: `n.now + $3::bigint`,
      blocked: 'false',
      blockExpiresAt: '0::bigint',
    },
    blocking,
  );
  // An existing key from its row, locked by ON CONFLICT: concurrent increments queue up and
  // each one starts from the state the previous one committed.
  const existing = step(
    {
      hits: 'c.hits',
      expiresAt: 'c.expires_at',
      blocked: 'c.blocked',
      blockExpiresAt: 'c.block_expires_at',
    },
    blocking,
  );
  return `
    INSERT INTO rate_limit_counter AS c (throttler, key, ${STATE_COLUMNS})
    SELECT $1, $2, fresh.* FROM (${fresh}) fresh
    ON CONFLICT (throttler, key) DO UPDATE SET (${STATE_COLUMNS}) = (${existing})
    RETURNING last_total_hits, last_time_to_expire, last_blocked, last_time_to_block_expire`;
}

const INCREMENT_BLOCKING = incrementSql(true);
const INCREMENT_NON_BLOCKING = incrementSql(false);

/**
 * Rows whose every expiry has passed answer like a missing row (the library's sweep drops
 * the same records), so they are deleted, a batch at a time, skipping rows being incremented.
 */
const PURGE_SQL = `
  WITH gone AS (
    DELETE FROM rate_limit_counter c
     USING (SELECT throttler, key FROM rate_limit_counter
             WHERE idle_at <= coalesce($1::bigint, ${DB_NOW_MS})
             LIMIT $2 FOR UPDATE SKIP LOCKED) d
     WHERE c.throttler = d.throttler AND c.key = d.key
    RETURNING 1)
  SELECT count(*)::int AS n FROM gone`;

/** What an increment answers, as stored. */
export interface IncrementRow {
  last_total_hits: number | string;
  last_time_to_expire: number | string;
  last_blocked: boolean;
  last_time_to_block_expire: number | string;
}

/** One increment of a (throttler, key) counter; `now` null: the database server's clock. */
export interface Increment {
  throttler: string;
  key: string;
  ttl: number;
  limit: number;
  now: number | null;
  /** Milliseconds; 0 or less: the non-blocking form. */
  blockDuration: number;
}

/**
 * The rate_limit_counter table's SQL (PostgresThrottlerStorage): the increment, a key's block,
 * and the purge of idle counters.
 */
@Injectable()
export class RateLimitCounterStore {
  async increment(runner: SqlRunner, step: Increment): Promise<IncrementRow> {
    const parameters = [step.throttler, step.key, step.ttl, step.limit, step.now];
    const row =
      step.blockDuration > 0
        ? await queryOne<IncrementRow>(runner, INCREMENT_BLOCKING, [
            ...parameters,
            step.blockDuration,
          ])
        : await queryOne<IncrementRow>(runner, INCREMENT_NON_BLOCKING, parameters);
    return row!;
  }

  /** Seconds until the key's block ends (rounded up); null when it is not blocked. */
  async blockedFor(
    runner: SqlRunner,
    throttler: string,
    key: string,
    now: number | null,
  ): Promise<number | null> {
    const row = await queryOne<{ seconds: string | null }>(
      runner,
      `SELECT ceil((c.block_expires_at - n.now) / 1000.0)::bigint AS seconds
           FROM rate_limit_counter c,
                (SELECT coalesce($3::bigint, ${DB_NOW_MS}) AS now) n
          WHERE c.throttler = $1 AND c.key = $2 AND c.blocked AND c.block_expires_at > n.now`,
      [throttler, key, now],
    );
    return row ? Number(row.seconds) : null;
  }

  /** Deletes up to `limit` counters idle at `now`, skipping locked ones; answers how many. */
  async purge(runner: SqlRunner, now: number | null, limit: number): Promise<number> {
    const row = await queryOne<{ n: number }>(runner, PURGE_SQL, [now, limit]);
    return row!.n;
  }
}
