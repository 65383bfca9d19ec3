import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API conventions (README "API conventions"): the shared counters of the every-route budgets
 * (`api_rate_counter`, one row per key and fixed window; nodes add their counts in batches)
 * and the answers kept for `Idempotency-Key` replays (`idempotency_key`, per caller, method
 * and path; a row without a status is a request still running; the body sealed with the
 * credentials key, as it may hold a secret shown once).
 */
export class ApiConventions1766710000000 implements MigrationInterface {
  name = 'ApiConventions1766710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE api_rate_counter (
        key text NOT NULL,
        window_start bigint NOT NULL,
        hits bigint NOT NULL,
        expires_at bigint NOT NULL,
        PRIMARY KEY (key, window_start)
      )`);
    await q.query(`CREATE INDEX idx_api_rate_counter_expires ON api_rate_counter (expires_at)`);
    await q.query(`
      CREATE TABLE idempotency_key (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        caller text NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        idempotency_key text NOT NULL,
        fingerprint text NOT NULL,
        status integer,
        headers jsonb,
        sealed_body text,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        CONSTRAINT uq_idempotency_key UNIQUE (caller, method, path, idempotency_key)
      )`);
    await q.query(`CREATE INDEX idx_idempotency_key_expires ON idempotency_key (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_key`);
    await q.query(`DROP TABLE api_rate_counter`);
  }
}
