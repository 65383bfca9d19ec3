import { join } from 'path';
import { Client } from 'pg';
import { createDataSource } from '../../src/database/data-source';
import {
  EmbeddedPostgresHandle,
  startEmbeddedPostgres,
} from '../../src/database/embedded/embedded-postgres';
import { isProcessAlive } from '../../src/database/embedded/process-probe';
import { runMigrationsLocked } from '../../src/database/migration-runner';

/** Throwaway cluster for e2e runs without TEST_DATABASE_URL / DATABASE_URL. */
export const TEST_PG_DIR = join(__dirname, '..', '..', 'var', 'test-pg');
const PREFIX = 'e2e_';

export interface TestDatabaseRun {
  /** URL of worker N's database: replace `{worker}` with JEST_WORKER_ID. */
  workerUrlPattern: string;
  adminUrl: string;
  databases: string[];
  embedded?: EmbeddedPostgresHandle;
}

export function databaseUrl(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * One migrated template per run, cloned into one database per jest worker, so migrations run
 * once and workers never share rows. Names carry the jest pid (`e2e_<pid>_w<N>`), so runs of
 * several checkouts against one server do not collide; databases of dead runs are dropped.
 */
export async function prepareTestDatabases(workers: number): Promise<TestDatabaseRun> {
  const external = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  const embedded = external
    ? undefined
    : await startEmbeddedPostgres({ baseDir: TEST_PG_DIR, database: 'e2e', durable: false });
  const adminUrl = external ?? embedded!.url;
  const run = `${PREFIX}${process.pid}_`;
  const template = `${run}tpl`;
  const databases = [template, ...Array.from({ length: workers }, (_, i) => `${run}w${i + 1}`)];

  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await dropStaleDatabases(admin, run);
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(template)}`);
    const dataSource = await createDataSource(databaseUrl(adminUrl, template)).initialize();
    try {
      await runMigrationsLocked(dataSource);
    } finally {
      await dataSource.destroy();
    }
    for (const name of databases.slice(1)) {
      await admin.query(
        `CREATE DATABASE ${admin.escapeIdentifier(name)} TEMPLATE ${admin.escapeIdentifier(template)}`,
      );
    }
  } catch (error) {
    await embedded?.release();
    throw error;
  } finally {
    await admin.end();
  }
  return {
    workerUrlPattern: databaseUrl(adminUrl, `${run}w{worker}`).replace('%7Bworker%7D', '{worker}'),
    adminUrl,
    databases,
    embedded,
  };
}

export async function dropTestDatabases(run: TestDatabaseRun): Promise<void> {
  try {
    if (process.env.KEEP_E2E_DATABASES) return;
    const admin = new Client({ connectionString: run.adminUrl });
    await admin.connect();
    try {
      for (const name of run.databases) {
        await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(name)} WITH (FORCE)`);
      }
    } finally {
      await admin.end();
    }
  } finally {
    await run.embedded?.release();
  }
}

/** Drops databases of earlier runs whose jest process is gone (and any reusing our pid). */
async function dropStaleDatabases(admin: Client, ownRun: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE 'e2e\\_%'`,
  );
  for (const { datname } of rows) {
    const pid = Number(/^e2e_(\d+)_/.exec(datname)?.[1]);
    if (datname.startsWith(ownRun) || !pid || !isProcessAlive(pid)) {
      await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(datname)} WITH (FORCE)`);
    }
  }
}
