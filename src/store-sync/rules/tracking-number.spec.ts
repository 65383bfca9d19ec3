import { normalizeTrackingNumber } from './tracking-number';

describe('normalizeTrackingNumber', () => {
  it.each([
    ['1Z999AA10123456784', '1Z999AA10123456784'],
    ['1Z 999 AA1 01 2345 6784', '1Z999AA10123456784'],
    ['  LX-123-456-789-CN ', 'LX123456789CN'],
    ['9400.1118.9956', '940011189956'],
    ['JJD/0003/9000', 'JJD00039000'],
  ])('keeps letters and digits of %j', (raw, expected) => {
    expect(normalizeTrackingNumber(raw)).toBe(expected);
  });

  it.each([[''], ['   '], ['--'], ['ABC#123'], ['ÄBC123'], ['A'.repeat(101)], [null], [undefined]])(
    'refuses %j',
    (raw) => {
      expect(normalizeTrackingNumber(raw)).toBeNull();
    },
  );

  it('keeps exactly 100 characters', () => {
    expect(normalizeTrackingNumber('A'.repeat(100))).toBe('A'.repeat(100));
  });
});
