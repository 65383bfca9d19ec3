import { lenientProviderInstant, providerInstant } from './provider-dates';

describe('providerInstant', () => {
  it.each([
    ['2021-03-04', '2021-03-04T00:00:00.000Z'],
    ['2021-03-04T17:12:57', '2021-03-04T17:12:57.000Z'],
    ['2021-03-04T17:12', '2021-03-04T17:12:00.000Z'],
    ['2021-03-04 17:12:57', '2021-03-04T17:12:57.000Z'],
    ['2021-03-04T17:12:57Z', '2021-03-04T17:12:57.000Z'],
    ['2021-03-04T17:12:57.250Z', '2021-03-04T17:12:57.250Z'],
    ['2021-03-04T17:12:57+02:00', '2021-03-04T15:12:57.000Z'],
    ['2021-03-04T17:12:57+0200', '2021-03-04T15:12:57.000Z'],
    ['2021-03-04T01:12:57-07:00', '2021-03-04T08:12:57.000Z'],
    ['  2021-03-04T17:12:57z ', '2021-03-04T17:12:57.000Z'],
    // The carriers' own ISO 8601 (FedEx with its offset, USPS in UTC, DHL bare local times).
    ['2018-02-02T12:01:00-07:00', '2018-02-02T19:01:00.000Z'],
    ['2023-08-02T07:31:00Z', '2023-08-02T07:31:00.000Z'],
    ['2022-11-15T10:41:00', '2022-11-15T10:41:00.000Z'],
  ])('%s is %s', (input, expected) => {
    expect(providerInstant(input)?.toISOString()).toBe(expected);
  });

  it.each([
    [''],
    ['yesterday'],
    ['2021-02-30'],
    ['2021-13-01T00:00:00Z'],
    ['2021-03-04T25:00:00'],
    ['04/03/2021'],
    ['Thu, 04 Mar 2021 17:12:57 GMT'],
    [null],
    [undefined],
    [1614877977],
  ])('%p is not a date', (input) => {
    expect(providerInstant(input)).toBeNull();
  });
});

describe('lenientProviderInstant', () => {
  it('reads what providerInstant reads the same way', () => {
    expect(lenientProviderInstant('2021-03-04T17:12:57')?.toISOString()).toBe(
      '2021-03-04T17:12:57.000Z',
    );
  });

  it('falls back to any date JavaScript reads, never to an invalid one', () => {
    expect(lenientProviderInstant('Thu, 04 Mar 2021 17:12:57 GMT')?.toISOString()).toBe(
      '2021-03-04T17:12:57.000Z',
    );
    expect(lenientProviderInstant('soon')).toBeNull();
    expect(lenientProviderInstant('  ')).toBeNull();
    expect(lenientProviderInstant(null)).toBeNull();
  });
});
