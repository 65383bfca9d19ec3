import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';

/** Schema pg-boss creates and maintains itself, beside ours (not in our migrations). */
export const JOB_SCHEMA = 'pgboss';

/** A job's sealed value (its data's `sealed` member), by job id. */
export interface SealedJobData {
  id: string;
  sealed: string;
}

/**
 * Statements on pg-boss's job table beside pg-boss's own: jobs pending, and the key rotation's
 * walk of the sealed data of jobs not yet finished (src/credentials/credentials-key-rotation.ts).
 */
@Injectable()
export class JobDataStore {
  /** Jobs of a queue not yet finished (created, retry or active). */
  async pending(runner: SqlRunner, queue: string): Promise<number> {
    const row = await queryOne<{ n: number }>(
      runner,
      `SELECT count(*)::int AS n FROM ${JOB_SCHEMA}.job WHERE name = $1 AND state < 'completed'`,
      [queue],
    );
    return row!.n;
  }

  /** Whether pg-boss has created its job table (a node has started the queue). */
  async jobTableExists(runner: SqlRunner): Promise<boolean> {
    const row = await queryOne<{ jobs: boolean }>(
      runner,
      `SELECT to_regclass('${JOB_SCHEMA}.job') IS NOT NULL AS jobs`,
    );
    return row!.jobs;
  }

  /**
   * Up to `limit` jobs of `queue` with sealed data, after the id `after`, created, waiting for
   * a retry or running (not finished), locked for the transaction.
   */
  sealedAfter(
    runner: SqlRunner,
    queue: string,
    after: string,
    limit: number,
  ): Promise<SealedJobData[]> {
    return query<SealedJobData>(
      runner,
      `SELECT id::text AS id, data->>'sealed' AS sealed FROM ${JOB_SCHEMA}.job
        WHERE name = $3 AND state < 'completed' AND id > $1::uuid AND data ? 'sealed'
        ORDER BY id LIMIT $2 FOR UPDATE`,
      [after, limit, queue],
    );
  }

  async reseal(runner: SqlRunner, queue: string, id: string, sealed: string): Promise<void> {
    await query(
      runner,
      `UPDATE ${JOB_SCHEMA}.job SET data = jsonb_set(data, '{sealed}', to_jsonb($2::text))
        WHERE id = $1::uuid AND name = $3`,
      [id, sealed, queue],
    );
  }
}
