import { dropTestDatabases, TestDatabaseRun } from './test-databases';

export default async function globalTeardown(): Promise<void> {
  const run = (globalThis as { __e2eRun?: TestDatabaseRun }).__e2eRun;
  if (run) await dropTestDatabases(run);
}
