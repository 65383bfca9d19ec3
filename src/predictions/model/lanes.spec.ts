import { laneKeys, normalizeCarrier, normalizeCountry, postcodePrefix } from './lanes';

describe('lane keys', () => {
  it('give one key per level, from the lane with its postcode region down to the carrier', () => {
    expect(
      laneKeys({
        carrier: 'DHL ',
        originCountry: 'de',
        destinationCountry: 'FR',
        postcode: '75 008',
      }),
    ).toEqual(['dhl|DE|FR|75', 'dhl|DE|FR', 'dhl|FR', 'dhl', '']);
  });

  it('skip the postcode level without a postcode or a destination', () => {
    expect(
      laneKeys({
        carrier: 'ups',
        originCountry: 'US',
        destinationCountry: 'US',
        postcode: null,
      })[0],
    ).toBeNull();
    expect(
      laneKeys({
        carrier: 'ups',
        originCountry: 'US',
        destinationCountry: null,
        postcode: '10001',
      }),
    ).toEqual([null, 'ups|US|-', 'ups|-', 'ups', '']);
  });

  it('keep unknown carriers and countries as a value of their own', () => {
    expect(normalizeCarrier(null)).toBe('-');
    expect(normalizeCarrier('  ')).toBe('-');
    expect(normalizeCountry('Germany')).toBe('-');
    expect(normalizeCountry(' gb ')).toBe('GB');
  });

  it('take the postcode region from letters and digits only', () => {
    expect(postcodePrefix('SW1A 1AA')).toBe('SW');
    expect(postcodePrefix('1')).toBeNull();
    expect(postcodePrefix('-')).toBeNull();
    expect(postcodePrefix(null)).toBeNull();
  });
});
