/** Days of orders the first run of a store workflow reads, unless the workflow says otherwise. */
export const DEFAULT_BACKFILL_DAYS = 30;

/**
 * How far before the cursor each run starts reading again. A store's change timestamps are
 * written before its transactions commit, and several orders share one second: an order
 * stamped just before the cursor can become visible after a run read past it. Reading the last
 * minutes again costs a few idempotent updates and loses nothing.
 */
export const IMPORT_OVERLAP_MS = 5 * 60_000;

/**
 * Where a workflow's import stands: the latest store change time (`updatedAt`, in the store's
 * clock) up to which every order has been imported. It only moves forward, page by page, so a
 * run that fails resumes from the last page it finished.
 */
export interface ImportCursor {
  /** ISO 8601. */
  readonly changedUpTo: string;
}

/** The start of a run's window: the cursor less the overlap, or the backfill for a first run. */
export function importWindowStart(
  cursor: ImportCursor | null,
  now: Date,
  backfillDays: number = DEFAULT_BACKFILL_DAYS,
): Date {
  if (cursor) {
    const upTo = Date.parse(cursor.changedUpTo);
    if (!Number.isNaN(upTo)) return new Date(upTo - IMPORT_OVERLAP_MS);
  }
  return new Date(now.getTime() - Math.max(0, backfillDays) * 86_400_000);
}

/**
 * The cursor once a page is imported: its latest change time, never before the previous
 * cursor (pages come oldest change first, but a store's listing is not a snapshot).
 */
export function advanceCursor(
  cursor: ImportCursor | null,
  imported: ReadonlyArray<{ readonly updatedAt: Date }>,
): ImportCursor | null {
  let latest = cursor ? Date.parse(cursor.changedUpTo) : Number.NaN;
  for (const order of imported) {
    const at = order.updatedAt.getTime();
    if (!Number.isNaN(at) && !(at <= latest)) latest = at;
  }
  return Number.isNaN(latest) ? cursor : { changedUpTo: new Date(latest).toISOString() };
}
