import * as countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json';

countries.registerLocale(en);

/** Upper-cased ISO 3166-1 alpha-2 code, or null when the value is not a known country code. */
export function normalizeCountryIso2(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const code = value.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code) ? code : null;
}

/** English (official ISO) name of a country, e.g. DE -> Germany; null when unknown. */
export function countryNameFromIso2(value: string | null | undefined): string | null {
  const code = normalizeCountryIso2(value);
  return code === null ? null : (countries.getName(code, 'en') ?? null);
}
