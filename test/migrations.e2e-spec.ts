import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source';
import { MIGRATION_LOCK_KEY, runMigrationsLocked } from '../src/database/migration-runner';

describe('migrations', () => {
  let dataSource: DataSource;
  let holder: Client;

  beforeAll(async () => {
    dataSource = await createDataSource(process.env.DATABASE_URL!).initialize();
    holder = new Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
  });

  afterAll(async () => {
    await holder.end();
    await dataSource.destroy();
  });

  it('are all applied to the worker database (cloned from the migrated template)', async () => {
    expect(await dataSource.showMigrations()).toBe(false);
  });

  it('wait for the advisory lock held by another process, then find nothing to do', async () => {
    await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    let finished = false;
    const run = runMigrationsLocked(dataSource).then((executed) => {
      finished = true;
      return executed;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(finished).toBe(false);
    await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    await expect(run).resolves.toEqual([]);
  });

  it('name columns in snake_case', async () => {
    const rows: { column_name: string }[] = await dataSource.query(
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name ~ '[A-Z]'`,
    );
    expect(rows).toEqual([]);
  });
});
