import * as countries from 'i18n-iso-countries';
import { countryCatalogue, stateCatalogue, timeZoneCatalogue } from './geography-catalogue';
import { SUBDIVISIONS } from './subdivisions';

describe('geography catalogue', () => {
  it('lists every ISO 3166-1 country once, with its English name', () => {
    const rows = countryCatalogue();
    expect(rows.length).toBeGreaterThanOrEqual(249);
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
    expect(rows.find((r) => r.code === 'DE')).toEqual({
      code: 'DE',
      name: 'Germany',
      preferred: true,
      stateful: true,
    });
    expect(rows.find((r) => r.code === 'FR')).toMatchObject({ preferred: true, stateful: false });
    expect(rows.every((r) => /^[A-Z]{2}$/.test(r.code) && r.name.length > 0)).toBe(true);
  });

  it('has well-formed, unique ISO 3166-2 subdivision codes of known countries', () => {
    const rows = stateCatalogue();
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.code).toMatch(new RegExp(`^${row.countryCode}-[A-Z0-9]{1,3}$`));
      expect(countries.isValid(row.countryCode)).toBe(true);
      expect(row.name.trim()).toBe(row.name);
    }
  });

  it('covers the first-level subdivisions of the main address countries', () => {
    const count = (c: string) => SUBDIVISIONS[c].length;
    expect(count('US')).toBe(57); // 50 states, DC, 6 outlying areas
    expect(count('CA')).toBe(13);
    expect(count('AU')).toBe(8);
    expect(count('IN')).toBe(36);
    expect(count('BR')).toBe(27);
    expect(count('MX')).toBe(32);
    expect(count('DE')).toBe(16);
    expect(count('JP')).toBe(47);
  });

  it('lists IANA time zones the database knows, current and runtime names, with UTC', () => {
    const rows = timeZoneCatalogue(
      [
        'Europe/Berlin',
        'America/Argentina/Buenos_Aires',
        'Asia/Kolkata',
        'Asia/Calcutta',
        'EST5EDT',
        'posix/Europe/Berlin',
        'UTC',
      ],
      ['Europe/Berlin', 'Asia/Calcutta', 'Mars/Olympus_Mons'],
    );
    expect(rows).toEqual([
      { code: 'America/Argentina/Buenos_Aires', name: 'America/Argentina/Buenos Aires' },
      { code: 'Asia/Calcutta', name: 'Asia/Calcutta' },
      { code: 'Asia/Kolkata', name: 'Asia/Kolkata' },
      { code: 'Europe/Berlin', name: 'Europe/Berlin' },
      { code: 'UTC', name: 'UTC' },
    ]);
  });
});
