import { PageDates, timeZoneOf } from './dates';

describe('page dates', () => {
  it('accepts IANA zone names only', () => {
    expect(timeZoneOf('Europe/Berlin')).toBe('Europe/Berlin');
    expect(timeZoneOf('utc')).toBe('UTC');
    expect(timeZoneOf('Mars/Olympus')).toBeNull();
    expect(timeZoneOf('<script>')).toBeNull();
    expect(timeZoneOf(['Europe/Berlin'])).toBeNull();
  });

  it('formats in the language and zone of the page', () => {
    const at = '2026-01-05T23:30:00+00:00';
    expect(new PageDates('en', 'UTC').dateTimeOf(at)).toBe('Jan 5, 2026, 11:30 PM');
    expect(new PageDates('de', 'Europe/Berlin').dateTimeOf(at)).toBe('06.01.2026, 00:30');
    expect(new PageDates('fr', 'Europe/Paris').dayOf(at)).toBe('mardi 6 janvier');
    expect(new PageDates('en', 'UTC').dateTimeOf('garbage')).toBeNull();
    expect(new PageDates('en', 'UTC').dayOf(null)).toBeNull();
    expect(new PageDates('en', 'Europe/Berlin').zoneLabel(new Date(at))).toBe(
      'Central European Standard Time',
    );
  });
});
