/**
 * The one timestamp reader of the provider adapters: carriers' APIs (DHL, FedEx, USPS: ISO
 * 8601) and aggregators (Ship24's LogisticDateTime, AfterShip, EasyPost, 17TRACK) all send a
 * date (`2021-03-04`), a date-time without zone (`2021-03-04T17:12:57`, also with a space), or
 * a date-time with `Z` or an offset (`...+02:00`, `...+0200`).
 *
 * An offset is honoured. A value without one is the carrier's local time in a zone nobody tells
 * us; it is read as UTC (never as the server's local time), which keeps the wall-clock time the
 * carrier printed (documented in the adapters' READMEs); a bare date is midnight UTC. Anything
 * else, a day that does not exist (2021-02-30) included, is not a date: null.
 */
export function providerInstant(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const match = PROVIDER_DATE_TIME.exec(value.trim());
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

/**
 * providerInstant, else any other text JavaScript reads as a date (an RFC 2822 date, say):
 * for fields an aggregator documents only loosely (Ship24's estimated delivery, 17TRACK's
 * event times). Null when neither reads it.
 */
export function lenientProviderInstant(value: unknown): Date | null {
  const strict = providerInstant(value);
  if (strict || typeof value !== 'string' || value.trim() === '') return strict;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const PROVIDER_DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?(Z|[+-]\d{2}:?\d{2})?$/i;
