import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';

/**
 * The table of a recorded job (RecordedJob): the owner's table, which follows the recorded-job
 * shape (id, status queued|running|done|failed, attempts, started_at, finished_at, error,
 * updated_at).
 */
export interface RecordedJobTable {
  table: string;
  /** RETURNING list of the claim; must include id and attempts. */
  columns: string;
}

/** The recorded-job protocol's statements, on the table its owner names (recorded-job.ts). */
@Injectable()
export class RecordedJobStore {
  /** Claims the record (queued or running: running, attempts + 1); undefined when finished or gone. */
  claim<Row extends object>(
    runner: SqlRunner,
    job: RecordedJobTable,
    id: string,
  ): Promise<Row | undefined> {
    return queryOne<Row>(
      runner,
      `UPDATE ${job.table} SET status = 'running', attempts = attempts + 1,
              started_at = COALESCE(started_at, now()), updated_at = now()
        WHERE id = $1 AND status IN ('queued', 'running')
        RETURNING ${job.columns}`,
      [id],
    );
  }

  /** Back to `queued`, for the queue's retry. */
  async requeue(runner: SqlRunner, job: RecordedJobTable, id: string): Promise<void> {
    await query(
      runner,
      `UPDATE ${job.table} SET status = 'queued', updated_at = now() WHERE id = $1`,
      [id],
    );
  }

  async fail(runner: SqlRunner, job: RecordedJobTable, id: string, reason: string): Promise<void> {
    await query(
      runner,
      `UPDATE ${job.table} SET status = 'failed', error = $2, finished_at = now(), updated_at = now()
        WHERE id = $1`,
      [id, reason],
    );
  }
}
