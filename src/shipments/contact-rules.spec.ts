import { isValidPhone } from './contact-rules';

describe('isValidPhone', () => {
  it('accepts international numbers and national ones of the given country', () => {
    expect(isValidPhone('+14155552671')).toBe(true);
    expect(isValidPhone('(415) 555-2671', 'US')).toBe(true);
    expect(isValidPhone('(415) 555-2671')).toBe(false);
    expect(isValidPhone('not a number', 'US')).toBe(false);
  });

  it('gives the same answer when asked again (answers are remembered per country)', () => {
    for (let round = 0; round < 2; round++) {
      expect(isValidPhone('030 1234567', 'DE')).toBe(true);
      expect(isValidPhone('030 1234567', 'US')).toBe(false);
      expect(isValidPhone('030 1234567', 'lowercase')).toBe(false);
    }
  });

  it('keeps answering right past the number of answers it remembers', () => {
    for (let i = 0; i < 1_100; i++)
      expect(isValidPhone(`+1415555${String(i).padStart(4, '0')}`)).toBe(true);
    expect(isValidPhone('+1415')).toBe(false);
  });
});
