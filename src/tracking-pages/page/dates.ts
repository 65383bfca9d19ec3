/** Time zone of the page when `?tz=` names none: UTC, labelled, until the browser script runs. */
export const DEFAULT_TIME_ZONE = 'UTC';

/** An IANA time zone name the runtime knows (`Europe/Berlin`), canonical; else null. */
export function timeZoneOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(value))
    return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Formatters are costly to build (ICU data): kept per language and zone, a bounded number. */
const CACHE_LIMIT = 200;
const cache = new Map<string, PageDates>();

/** The date formatting of one language and zone, built once and reused. */
export function pageDates(locale: string, timeZone: string): PageDates {
  const key = `${locale}|${timeZone}`;
  let dates = cache.get(key);
  if (!dates) {
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    dates = new PageDates(locale, timeZone);
    cache.set(key, dates);
  }
  return dates;
}

/** Formats dates of one page: one language, one time zone. */
export class PageDates {
  private readonly dateTime: Intl.DateTimeFormat;
  private readonly day: Intl.DateTimeFormat;
  private readonly shortDay: Intl.DateTimeFormat;
  private readonly zoneName: Intl.DateTimeFormat;
  /** Country names in the page's language (`Intl.DisplayNames`). */
  readonly regions: Intl.DisplayNames;

  constructor(
    readonly locale: string,
    readonly timeZone: string,
  ) {
    this.dateTime = new Intl.DateTimeFormat(locale, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone,
    });
    this.day = new Intl.DateTimeFormat(locale, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone,
    });
    this.shortDay = new Intl.DateTimeFormat(locale, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      timeZone,
    });
    this.zoneName = new Intl.DateTimeFormat(locale, { timeZoneName: 'long', timeZone });
    this.regions = new Intl.DisplayNames([locale], { type: 'region' });
  }

  /** `25 Nov 2026, 14:05` in the page's language and zone; null for a missing or bad date. */
  dateTimeOf(iso: string | null | undefined): string | null {
    const d = parse(iso);
    return d ? this.dateTime.format(d) : null;
  }

  /** `Wednesday, 25 November`: expected delivery days. */
  dayOf(iso: string | null | undefined): string | null {
    const d = parse(iso);
    return d ? this.day.format(d) : null;
  }

  /**
   * `Tue 2 – Thu 4 Dec`: a delivery window's days, as the language writes a range (one day
   * when both fall on it); null for a missing or bad date.
   */
  dayRangeOf(
    earliest: string | null | undefined,
    latest: string | null | undefined,
  ): string | null {
    const from = parse(earliest);
    const to = parse(latest);
    if (!from || !to) return null;
    return to < from ? this.shortDay.format(from) : this.shortDay.formatRange(from, to);
  }

  /** The zone's name in the page's language (`Central European Standard Time`). */
  zoneLabel(at = new Date()): string {
    const part = this.zoneName.formatToParts(at).find((p) => p.type === 'timeZoneName');
    return part?.value ?? this.timeZone;
  }
}

function parse(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}
