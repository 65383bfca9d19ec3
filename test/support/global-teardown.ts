import { dropTestDatabases, TestDatabaseRun } from './test-databases';

/** How long a run may take to exit by itself after its last suite. */
const EXIT_GRACE_MS = 60_000;

export default async function globalTeardown(): Promise<void> {
  const run = (globalThis as { __e2eRun?: TestDatabaseRun }).__e2eRun;
  if (run) await dropTestDatabases(run);
  // A handle left open (a leak) would keep the run alive until CI's time limit: after the
  // grace period it is named and the run fails instead. Unreferenced, so a clean run exits
  // at once.
  setTimeout(() => {
    process.stderr.write(
      `jest has not exited ${EXIT_GRACE_MS / 1000} s after its last suite; still open: ` +
        `${process.getActiveResourcesInfo().join(', ')}\n`,
    );
    process.exit(1);
  }, EXIT_GRACE_MS).unref();
}
