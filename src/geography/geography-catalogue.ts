import * as countries from 'i18n-iso-countries';
import { SUBDIVISIONS } from './subdivisions';

export interface CountryRow {
  code: string;
  name: string;
  preferred: boolean;
  stateful: boolean;
}

export interface StateRow {
  code: string;
  name: string;
  countryCode: string;
}

export interface TimeZoneRow {
  code: string;
  name: string;
}

/** Pinned to the top of country pickers: the largest e-commerce shipping markets. */
export const PREFERRED_COUNTRIES: readonly string[] = ['US', 'GB', 'CA', 'AU', 'DE', 'FR'];

/** Every ISO 3166-1 country, with its official English name (i18n-iso-countries). */
export function countryCatalogue(): CountryRow[] {
  const names = countries.getNames('en', { select: 'official' });
  return Object.entries(names)
    .map(([code, name]) => ({
      code,
      name,
      preferred: PREFERRED_COUNTRIES.includes(code),
      stateful: code in SUBDIVISIONS,
    }))
    .sort((a, b) => a.code.localeCompare(b.code));
}

export function stateCatalogue(): StateRow[] {
  return Object.entries(SUBDIVISIONS).flatMap(([countryCode, list]) =>
    list.map((s) => ({ code: s.code, name: s.name, countryCode })),
  );
}

/** Region zones (`Area/Location`), as opposed to POSIX-style and legacy aliases (`EST5EDT`). */
const REGION_ZONE =
  /^(Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)\//;

/**
 * The IANA time zones: those the runtime knows (ICU, which still reports some zones by their
 * older names, `Asia/Calcutta`), the region zones of the database's tz data (current names,
 * `Asia/Kolkata`), and `UTC`; limited to zones the database can compute offsets for. The name
 * reads like a picker label: `America/Argentina/Buenos_Aires` -> `America/Argentina/Buenos Aires`.
 */
export function timeZoneCatalogue(
  databaseZones: readonly string[],
  runtimeZones: readonly string[] = Intl.supportedValuesOf('timeZone'),
): TimeZoneRow[] {
  const known = new Set(databaseZones);
  const all = new Set([
    ...runtimeZones,
    ...databaseZones.filter((z) => REGION_ZONE.test(z)),
    'UTC',
  ]);
  return [...all]
    .filter((code) => known.has(code))
    .sort()
    .map((code) => ({ code, name: code.replace(/_/g, ' ') }));
}
