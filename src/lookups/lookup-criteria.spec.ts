import { ApiError, ValidationError } from '../common/errors/api-errors';
import { lookupCriteria, phoneSuffix } from './lookup-criteria';

describe('phoneSuffix', () => {
  it.each([
    ['+1 415 555 2671', '4155552671'],
    ['+14155552671', '4155552671'],
    ['(415) 555-2671', '4155552671'],
    ['+44 20 7946 0958', '2079460958'],
    ['0044 20 7946 0958', '2079460958'],
    ['020 7946 0958', '2079460958'],
  ])('%s -> %s', (input, digits) => {
    expect(phoneSuffix(input)).toBe(digits);
  });

  it('refuses numbers with too few digits', () => {
    expect(phoneSuffix('12-34')).toBeNull();
    expect(phoneSuffix('00012345')).toBeNull();
  });
});

describe('lookupCriteria', () => {
  it('reads every criterion, trimmed, e-mails lower-cased', () => {
    expect(
      lookupCriteria({
        trackingNumber: ' tm1 ',
        orderNumber: 'ON-1',
        email: ' Jane@Example.COM ',
        phoneNumber: '+1 415 555 2671',
      }),
    ).toEqual({
      trackingNumber: 'tm1',
      orderNumber: 'ON-1',
      email: 'jane@example.com',
      phoneDigits: '4155552671',
    });
  });

  it('matches a free-text query against the kinds it may be', () => {
    expect(lookupCriteria({ query: 'Jane@Example.com' }).query).toEqual({
      text: 'Jane@Example.com',
      email: 'jane@example.com',
      phoneDigits: undefined,
    });
    expect(lookupCriteria({ query: '(415) 555-2671' }).query).toEqual({
      text: '(415) 555-2671',
      email: undefined,
      phoneDigits: '4155552671',
    });
    expect(lookupCriteria({ query: 'TM200ABCTM' }).query).toEqual({
      text: 'TM200ABCTM',
      email: undefined,
      phoneDigits: undefined,
    });
  });

  it('is a 422 without any criterion, blank ones included', () => {
    expect(() => lookupCriteria({})).toThrow(ValidationError);
    expect(() => lookupCriteria({ email: '  ', trackingNumber: null })).toThrow(ValidationError);
  });

  it('is a 422 for a phone number too short to compare', () => {
    try {
      lookupCriteria({ phoneNumber: '123' });
      throw new Error('expected a violation');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).violations[0].propertyPath).toBe('phoneNumber');
    }
  });

  it('is a 400 for values that are not strings', () => {
    for (const body of [{ email: 1 }, { query: ['a'] }, { trackingNumber: {} }]) {
      try {
        lookupCriteria(body);
        throw new Error('expected a 400');
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).status).toBe(400);
      }
    }
  });
});
