import { isValidPhone } from './contact-rules';
import { decideOriginCarrier } from './shipment-carrier';
import { cleanOrderNumbers, trimTrackingNumber } from './shipment-write-rules';
import { TRACKING_NUMBER_PATTERN, WORKFLOW_IRI_PATTERN } from './shipment.entity';

describe('decideOriginCarrier', () => {
  it('fills the carrier of a clear winner', () => {
    expect(decideOriginCarrier('1Z999AA10123456784', null)).toEqual({ carrier: 'ups' });
  });

  it('keeps a given known carrier in its canonical code, whatever the number', () => {
    expect(decideOriginCarrier('ZZZ123', 'UPS')).toEqual({ carrier: 'ups' });
  });

  it('refuses an unknown given carrier on originCarrier', () => {
    const d = decideOriginCarrier('1Z999AA10123456784', 'nope');
    expect(d).toMatchObject({ violation: { propertyPath: 'originCarrier' } });
  });

  it('suggests the tied candidates on trackingNumber', () => {
    const d = decideOriginCarrier('287809468872', null);
    expect(d).toMatchObject({
      violation: { propertyPath: 'trackingNumber' },
      suggestedCarriers: [{ code: 'fedex' }, { code: 'purolator' }],
    });
  });

  it('answers an empty suggestion list when nothing matches', () => {
    expect(decideOriginCarrier('ZZZ123', null)).toMatchObject({ suggestedCarriers: [] });
  });

  it('needs no carrier without a tracking number', () => {
    expect(decideOriginCarrier(null, null)).toEqual({ carrier: null });
  });
});

describe('tracking numbers and order numbers', () => {
  it('trims tracking numbers, maps empty to null, keeps blank ones for the pattern to refuse', () => {
    expect(trimTrackingNumber('  AB12 ')).toBe('AB12');
    expect(trimTrackingNumber('')).toBeNull();
    expect(trimTrackingNumber(null)).toBeNull();
    expect(trimTrackingNumber('   ')).toBe('   ');
    expect(TRACKING_NUMBER_PATTERN.test('   ')).toBe(false);
    expect(TRACKING_NUMBER_PATTERN.test(' AB12 ')).toBe(true);
    expect(TRACKING_NUMBER_PATTERN.test('AB-12')).toBe(false);
  });

  it('cleans order numbers: trimmed, no blanks, no duplicates, order kept', () => {
    expect(cleanOrderNumbers([' B', 'A', '', 'B ', '  '])).toEqual(['B', 'A']);
    expect(cleanOrderNumbers(undefined)).toEqual([]);
  });

  it('accepts workflow IRIs only', () => {
    expect(WORKFLOW_IRI_PATTERN.test('/workflows/a0b97939-5aea-4b35-b7c6-64f56bff1721')).toBe(true);
    expect(WORKFLOW_IRI_PATTERN.test('/shipments/a0b97939-5aea-4b35-b7c6-64f56bff1721')).toBe(
      false,
    );
  });
});

describe('isValidPhone', () => {
  it('accepts international numbers without a country', () => {
    expect(isValidPhone('+14155552671')).toBe(true);
    expect(isValidPhone('+49 30 901820')).toBe(true);
  });

  it('reads national numbers with the address country', () => {
    expect(isValidPhone('(415) 555-2671', 'US')).toBe(true);
    expect(isValidPhone('(415) 555-2671')).toBe(false);
    expect(isValidPhone('030 901820', 'DE')).toBe(true);
  });

  it('refuses garbage and ignores a malformed country', () => {
    expect(isValidPhone('12345', 'US')).toBe(false);
    expect(isValidPhone('not a phone')).toBe(false);
    expect(isValidPhone('+14155552671', 'usa')).toBe(true);
  });
});
