import type { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { NotFoundError } from '../common/errors/api-errors';
import { runRecordedJob, type RecordedJob } from './recorded-job';

describe('runRecordedJob', () => {
  const job: RecordedJob = {
    table: 'export',
    columns: 'id, attempts',
    maxAttempts: 3,
    label: 'export',
    unexpectedFailure: 'The export could not be completed.',
  };

  /** A database whose claim answers `claimed`; records every statement. */
  function fakeDb(claimed: Array<{ id: string; attempts: number }>) {
    const sql: Array<[string, unknown[]]> = [];
    const query = jest.fn(async (text: string, params: unknown[]) => {
      sql.push([text.replace(/\s+/g, ' ').trim(), params]);
      return text.includes("SET status = 'running'") ? claimed : [];
    });
    const db = { query, transaction: (fn: (em: unknown) => unknown) => fn({ query }) };
    return { db: db as unknown as DataSource, sql };
  }
  const logger = { error: jest.fn() } as unknown as Logger & { error: jest.Mock };

  it('does nothing for a record already finished or gone', async () => {
    const { db, sql } = fakeDb([]);
    const work = jest.fn();
    await runRecordedJob(db, logger, job, 'x', work, jest.fn());
    expect(work).not.toHaveBeenCalled();
    expect(sql).toHaveLength(1);
  });

  it('puts an unexpected failure back in the queue and rethrows while attempts remain', async () => {
    const { db, sql } = fakeDb([{ id: 'e1', attempts: 2 }]);
    const onFailed = jest.fn();
    await expect(
      runRecordedJob(db, logger, job, 'e1', () => Promise.reject(new Error('db down')), onFailed),
    ).rejects.toThrow('db down');
    expect(sql.at(-1)![0]).toBe(
      "UPDATE export SET status = 'queued', updated_at = now() WHERE id = $1",
    );
    expect(onFailed).not.toHaveBeenCalled();
  });

  it('fails for good on the last attempt, logged, with the generic reason', async () => {
    const { db, sql } = fakeDb([{ id: 'e1', attempts: 3 }]);
    const onFailed = jest.fn();
    await runRecordedJob(
      db,
      logger,
      job,
      'e1',
      () => Promise.reject(new Error('db down')),
      onFailed,
    );
    expect(sql.at(-1)![0]).toMatch(/^UPDATE export SET status = 'failed', error = \$2/);
    expect(sql.at(-1)![1]).toEqual(['e1', 'The export could not be completed.']);
    expect(onFailed).toHaveBeenCalledWith(
      { id: 'e1', attempts: 3 },
      'The export could not be completed.',
      expect.anything(),
    );
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('export e1: Error: db down'));
  });

  it('fails an ApiError at once with its description, or the job own wording', async () => {
    const { db, sql } = fakeDb([{ id: 'e1', attempts: 1 }]);
    await runRecordedJob(
      db,
      logger,
      job,
      'e1',
      () => Promise.reject(new NotFoundError('Gone.')),
      jest.fn(),
    );
    expect(sql.at(-1)![1]).toEqual(['e1', 'Gone.']);
    const worded = { ...job, describe: () => 'Some of the records no longer exist.' };
    const second = fakeDb([{ id: 'e2', attempts: 1 }]);
    await runRecordedJob(
      second.db,
      logger,
      worded,
      'e2',
      () => Promise.reject(new NotFoundError()),
      jest.fn(),
    );
    expect(second.sql.at(-1)![1]).toEqual(['e2', 'Some of the records no longer exist.']);
  });
});
