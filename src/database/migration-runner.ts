import { DataSource, Migration } from 'typeorm';

/** Fixed key of the session-level advisory lock that serialises migration runs. */
export const MIGRATION_LOCK_KEY = 727_274_001;

/**
 * Runs pending migrations while holding `pg_advisory_lock(MIGRATION_LOCK_KEY)` on a dedicated
 * connection, so several processes starting at once run them exactly once (the others wait,
 * then find nothing pending). Each migration runs in its own transaction; a migration may opt
 * out with `transaction = false` (e.g. CREATE INDEX CONCURRENTLY).
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<Migration[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner
      .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
      .catch(() => undefined);
    await runner.release();
  }
}
