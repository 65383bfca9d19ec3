import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate-limit counters shared by every node (src/rate-limit/postgres-throttler-storage.ts):
 * one row per (throttler, key) with the state of @nestjs/throttler's in-memory record. Times
 * are epoch milliseconds, as the library computes them. UNLOGGED: no WAL for this churn; a
 * crash of the server empties the table, which only hands out fresh budgets. No index but the
 * key, so increments stay HOT updates (fillfactor leaves them room); the periodic purge scans a
 * table that it keeps small.
 */
export class RateLimitCounters1763930000000 implements MigrationInterface {
  name = 'RateLimitCounters1763930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE rate_limit_counter (
        throttler text NOT NULL,
        key text NOT NULL,
        hits bigint[] NOT NULL,
        expires_at bigint NOT NULL,
        blocked boolean NOT NULL,
        block_expires_at bigint NOT NULL,
        idle_at bigint NOT NULL,
        last_total_hits integer NOT NULL,
        last_time_to_expire integer NOT NULL,
        last_blocked boolean NOT NULL,
        last_time_to_block_expire bigint NOT NULL,
        PRIMARY KEY (throttler, key)
      ) WITH (fillfactor = 70)`);
    await q.query(`
      COMMENT ON TABLE rate_limit_counter IS
        'Rate-limit state shared by all nodes. hits: expiry of each counted hit; expires_at: window '
        'expiry; block_expires_at: 0 if never blocked; idle_at: from then on the row can be '
        'deleted; last_*: answer of the latest increment (epoch ms, times to expire in seconds)'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rate_limit_counter`);
  }
}
