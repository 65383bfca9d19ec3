import { checkDetectable, detectCarrier } from './carrier-detection';

describe('detectCarrier', () => {
  it('names the clear winner and its tracking page', () => {
    const d = detectCarrier('1z999aa1-0123456784');
    expect(d.trackingNumber).toBe('1Z999AA10123456784');
    expect(d.carrier).toBe('ups');
    expect(d.carriers[0]).toMatchObject({
      code: 'ups',
      name: expect.any(String),
      format: expect.any(String),
      checksumValidated: true,
      trackingUrl: expect.stringContaining('1Z999AA10123456784'),
    });
  });

  it('names no carrier when several rank first, and lists them', () => {
    // Twelve digits passing both FedEx Express's and Purolator's check digit.
    const d = detectCarrier('328460606002');
    expect(d.carrier).toBeNull();
    expect(d.carriers.map((c) => c.code).sort()).toEqual(['fedex', 'purolator']);
  });

  it('answers no candidate for a number nothing matches', () => {
    expect(detectCarrier('NOTANUMBER')).toEqual({
      trackingNumber: 'NOTANUMBER',
      carrier: null,
      carriers: [],
    });
  });

  it('finds the sandbox carrier for the test numbers', () => {
    expect(detectCarrier('TM102ABC123TM').carrier).toBe('tm-test');
  });
});

describe('checkDetectable', () => {
  it('accepts letters and digits with separators', () => {
    expect(checkDetectable(' 1Z 999-AA1 ')).toBeNull();
  });

  it.each([
    ['', 'This value should not be blank.'],
    [' - ', 'This value should not be blank.'],
    ['A'.repeat(101), 'This value is too long. It should have 100 characters or less.'],
    ['AB/12', 'This value is not valid.'],
    ['AB\u000012', 'This value is not valid.'],
  ])('refuses %j', (raw, message) => {
    expect(checkDetectable(raw)).toEqual({ propertyPath: 'trackingNumber', message });
  });
});
