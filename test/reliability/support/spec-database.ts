import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { databaseUrl } from '../../support/test-databases';

/**
 * A database of its own for a spec whose app runs in child processes, cloned from this jest
 * run's migrated template (`e2e_<pid>_tpl`) on the test server, named with the run's prefix
 * (so a run that dies leaves nothing the next run does not drop).
 */
export interface SpecDatabase {
  url: string;
  /** A small pool on it, for the spec's own setup and checks. */
  db: DataSource;
  drop(): Promise<void>;
}

export async function createSpecDatabase(suffix: string): Promise<SpecDatabase> {
  const pattern = process.env.E2E_DATABASE_URL_PATTERN;
  if (!pattern) throw new Error('E2E_DATABASE_URL_PATTERN is unset: run through jest');
  const workerDb = new URL(pattern.replace('{worker}', '1')).pathname.slice(1);
  const prefix = workerDb.replace(/w1$/, '');
  const name = `${prefix}${suffix}`;
  const admin = new Client({ connectionString: databaseUrl(pattern, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(name)} WITH (FORCE)`);
    await admin.query(
      `CREATE DATABASE ${admin.escapeIdentifier(name)} TEMPLATE ${admin.escapeIdentifier(`${prefix}tpl`)}`,
    );
  } finally {
    await admin.end();
  }
  const url = databaseUrl(pattern, name);
  const db = await new DataSource({ type: 'postgres', url, extra: { max: 3 } }).initialize();
  return {
    url,
    db,
    drop: async () => {
      await db.destroy().catch(() => undefined);
      if (process.env.KEEP_E2E_DATABASES) return;
      const client = new Client({ connectionString: databaseUrl(pattern, 'postgres') });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
