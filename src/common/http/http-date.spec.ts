import { httpDate } from './http-date';

describe('httpDate', () => {
  it('formats an instant as an HTTP date, at one-second resolution', () => {
    expect(httpDate(Date.UTC(2026, 10, 28, 8, 0, 0, 999))).toBe('Sat, 28 Nov 2026 08:00:00 GMT');
    expect(httpDate(Date.UTC(2026, 10, 28, 8, 0, 0, 0))).toBe('Sat, 28 Nov 2026 08:00:00 GMT');
  });

  it('answers each second with its own date, in any order', () => {
    const a = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(httpDate(a)).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
    expect(httpDate(a + 1000)).toBe('Sun, 06 Nov 1994 08:49:38 GMT');
    expect(httpDate(a)).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
    expect(httpDate(a - 1)).toBe('Sun, 06 Nov 1994 08:49:36 GMT');
  });
});
