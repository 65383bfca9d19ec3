/**
 * Named points in background work where a crash test stops the process: with
 * `TEST_PAUSE_AT=<name>[,<name>...]` (tests only), work that reaches a listed point waits for
 * good, and the first arrival writes `PAUSED <name>` on stderr, so the test knows the work is halfway
 * (e.g. a refresh batch half applied, a webhook sent but not recorded) and kills the process
 * there (SIGKILL). Unset (always, outside those tests) a pause point costs one lookup.
 *
 * Points: `tracking.refresh.applied` (a refresh job's shipments refreshed, the job not yet
 * complete; the claim's other jobs still queued),
 * `event.delivery.sent` (a webhook or e-mail sent, its outcome not yet recorded),
 * `import.row.committed` (a row of an import committed), `batch.change.uncommitted` (an async
 * batch's change made, its transaction not yet committed), `export.file.written` (an export's
 * file stored, the export not yet marked done).
 */
export function pausePoint(name: string): Promise<void> {
  const listed = process.env.TEST_PAUSE_AT;
  if (!listed || !listed.split(',').some((p) => p.trim() === name)) return Promise.resolve();
  if (!reached.has(name)) process.stderr.write(`PAUSED ${name}\n`);
  reached.add(name);
  return new Promise<void>(() => undefined);
}

const reached = new Set<string>();
