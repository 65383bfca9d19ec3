import type { Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-errors';
import { RecordedJobStore, type RecordedJobTable } from './recorded-job-store';

/**
 * A background job the API records in a table of its own so clients can follow it
 * (`batch_job`, `export`: status queued|running|done|failed, attempts, started_at,
 * finished_at, error), run by a queue worker.
 */
export interface RecordedJob extends RecordedJobTable {
  maxAttempts: number;
  /** Names the job in error logs, e.g. `batch job`. */
  label: string;
  /** The recorded reason of a failure that is not an ApiError. */
  unexpectedFailure: string;
  /** The recorded reason of an ApiError (default: its description). */
  describe?: (error: ApiError) => string;
}

/** The statements of the protocol (the store holds no state). */
const records = new RecordedJobStore();

/**
 * One attempt: claims the record (queued or running, attempts + 1), runs `work` (which
 * marks it done itself), and on failure either puts it back to `queued` and rethrows, so
 * the queue retries, or, for an ApiError (input that no longer holds) or the last attempt,
 * marks it failed with the reason and lets `onFailed` notify in the same transaction.
 * A record already finished or gone is left alone.
 */
export async function runRecordedJob<Row extends { id: string; attempts: number }>(
  db: DataSource,
  logger: Logger,
  job: RecordedJob,
  id: string,
  work: (row: Row) => Promise<void>,
  onFailed: (row: Row, reason: string, em: EntityManager) => Promise<unknown>,
): Promise<void> {
  const row = await records.claim<Row>(db, job, id);
  if (!row) return;
  try {
    await work(row);
  } catch (error) {
    const final = error instanceof ApiError || row.attempts >= job.maxAttempts;
    if (!final) {
      await records.requeue(db, job, row.id);
      throw error;
    }
    const reason =
      error instanceof ApiError
        ? (job.describe?.(error) ?? error.description)
        : job.unexpectedFailure;
    if (!(error instanceof ApiError)) logger.error(`${job.label} ${row.id}: ${String(error)}`);
    await db.transaction(async (em) => {
      await records.fail(em, job, row.id, reason);
      await onFailed(row, reason, em);
    });
  }
}
