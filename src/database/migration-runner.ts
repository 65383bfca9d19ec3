import { DataSource, Migration } from 'typeorm';
import { withAdvisoryLock } from './advisory-lock';
import { query } from './query';

/** Fixed key of the session-level advisory lock that serialises migration runs. */
export const MIGRATION_LOCK_KEY = 727_274_001;

/**
 * Runs pending migrations while holding `pg_advisory_lock(MIGRATION_LOCK_KEY)` on a dedicated
 * connection, so several processes starting at once run them exactly once (the others wait,
 * then find nothing pending). Each migration runs in its own transaction; a migration may opt
 * out with `transaction = false` (e.g. CREATE INDEX CONCURRENTLY).
 */
export function runMigrationsLocked(dataSource: DataSource): Promise<Migration[]> {
  return withAdvisoryLock(dataSource, MIGRATION_LOCK_KEY, () =>
    dataSource.runMigrations({ transaction: 'each' }),
  );
}

/** The names of the migrations the database has run (none before the first run). */
export async function appliedMigrations(dataSource: DataSource): Promise<Set<string>> {
  const rows = await query<{ name: string }>(dataSource, `SELECT name FROM migrations`).catch(
    () => [],
  );
  return new Set(rows.map((r) => r.name));
}
