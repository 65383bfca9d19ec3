import type { DataSource } from 'typeorm';

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
