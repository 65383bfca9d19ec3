import type { DataSource } from 'typeorm';
import { execute, type SqlRunner } from './query';

/**
 * Runs `fn` while holding the session-level `pg_advisory_lock(key)` on a dedicated connection,
 * so work that must not run on two nodes at once (migrations, creating job queues: concurrent
 * DDL on shared tables deadlocks) runs on one at a time; the others wait, then usually find
 * nothing left to do.
 */
export async function withAdvisoryLock<T>(
  dataSource: DataSource,
  key: number,
  fn: () => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [key]);
    return await fn();
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
    await runner.release();
  }
}

/**
 * Takes the transaction-scoped `pg_advisory_xact_lock` on a text key (hashed), released at
 * commit or rollback: concurrent transactions on one key (two posts of one record, two feed
 * imports of one team) run their check-then-write one after the other.
 */
export async function lockForTransaction(runner: SqlRunner, key: string): Promise<void> {
  await execute(runner, 'SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}

/** `lockForTransaction` on several keys in one statement, in key order (no lock cycles). */
export async function lockAllForTransaction(
  runner: SqlRunner,
  keys: readonly string[],
): Promise<void> {
  if (keys.length === 0) return;
  await execute(
    runner,
    'SELECT count(pg_advisory_xact_lock(hashtext(k))) FROM (SELECT DISTINCT unnest($1::text[]) AS k ORDER BY 1) s',
    [keys],
  );
}
