import { chooseCoding, isCompressible } from './compression';

describe('compression rules', () => {
  it('picks brotli unless gzip is preferred; * and q=0 as RFC 9110 says', () => {
    expect(chooseCoding(undefined)).toBeNull();
    expect(chooseCoding('')).toBeNull();
    expect(chooseCoding('identity')).toBeNull();
    expect(chooseCoding('gzip, deflate')).toBe('gzip');
    expect(chooseCoding('gzip, deflate, br')).toBe('br');
    expect(chooseCoding('br;q=0.5, gzip')).toBe('gzip');
    expect(chooseCoding('br;q=0, gzip;q=0')).toBeNull();
    expect(chooseCoding('*')).toBe('br');
    expect(chooseCoding('*;q=0.1, gzip')).toBe('gzip');
    expect(chooseCoding('x-gzip')).toBe('gzip');
    expect(chooseCoding('GZIP;Q=1')).toBe('gzip');
  });

  it('compresses text formats only', () => {
    for (const type of [
      'application/ld+json; charset=utf-8',
      'application/json',
      'application/problem+json',
      'text/csv; charset=utf-8',
      'text/html',
      'application/javascript',
    ])
      expect(isCompressible(type)).toBe(true);
    for (const type of ['image/png', 'application/pdf', 'application/zip', undefined, 3])
      expect(isCompressible(type)).toBe(false);
  });
});
