import { Address } from './address';
import { normalizeAddress } from './address-rules';

const address = (fields: Partial<Address>) => Object.assign(new Address(), fields);

describe('normalizeAddress', () => {
  it('trims, nulls blanks and upper-cases the country code, filling the name', () => {
    const a = address({ city: ' Liberal ', company: '  ', countryIso2: 'us' });
    normalizeAddress(a);
    expect(a).toMatchObject({
      city: 'Liberal',
      company: null,
      countryIso2: 'US',
      country: 'United States of America',
    });
  });

  it('fills the code from an English country name', () => {
    const a = address({ country: 'Germany' });
    normalizeAddress(a);
    expect(a.countryIso2).toBe('DE');
  });

  it('keeps both when both are given, and leaves unknown names alone', () => {
    const a = address({ country: 'Deutschland', countryIso2: 'DE' });
    normalizeAddress(a);
    expect(a).toMatchObject({ country: 'Deutschland', countryIso2: 'DE' });
    const b = address({ country: 'Atlantis' });
    normalizeAddress(b);
    expect(b.countryIso2).toBeNull();
  });
});
