import { MAX_RAW_KEY_LENGTH, storedKey } from './postgres-throttler-storage';

describe('storedKey', () => {
  it('keeps short keys as they are', () => {
    expect(storedKey('widget-lookup:abc|127.0.0.1')).toBe('widget-lookup:abc|127.0.0.1');
  });

  it('hashes long keys and keys PostgreSQL text cannot hold', () => {
    const long = 'k'.repeat(MAX_RAW_KEY_LENGTH + 1);
    expect(storedKey(long)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(storedKey('widget-lookup:\u0000|127.0.0.1')).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(storedKey('a\u0000b')).not.toBe(storedKey('a\u0000c'));
  });
});
