/**
 * A carrier's "logistics" timestamp, as Ship24 (LogisticDateTime) and AfterShip (checkpoint_time,
 * estimated delivery dates) pass them on: a date (`2021-03-04`), a local date-time without zone
 * (`2021-03-04T17:12:57`), or a date-time with `Z` or an offset (`...+02:00`, `...+0200`).
 *
 * An offset is honoured. A value without one is the carrier's local time in a zone nobody tells
 * us; it is read as UTC, which keeps the wall-clock time the carrier printed (documented in the
 * adapters' READMEs). Anything else is not a date: null.
 */
export function parseLogisticDateTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const match = LOGISTIC_DATE_TIME.exec(value.trim());
  if (!match) return null;
  const [, date, time, zone] = match;
  const offset =
    zone === undefined
      ? 'Z'
      : zone.toUpperCase() === 'Z'
        ? 'Z'
        : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  // Date rolls calendar overflow over (2021-02-30 -> March 2): such a day is not a date.
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) return null;
  const parsed = new Date(`${date}T${time ?? '00:00:00'}${offset}`);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

const LOGISTIC_DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?(Z|[+-]\d{2}:?\d{2})?$/i;
