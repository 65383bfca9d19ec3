import {
  CARRIERS,
  findCarrier,
  S10_COUNTRY_CARRIERS,
  TEST_CARRIER_CODE,
  trackingUrlFor,
} from './carrier-catalogue';
import { NATIONAL_POSTS } from './national-posts';

describe('carrier catalogue', () => {
  it('has unique lowercase slug codes', () => {
    const codes = CARRIERS.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('contains the couriers the detector and the API rely on', () => {
    for (const code of [
      'ups',
      'fedex',
      'usps',
      'dhl',
      'dhl-ecommerce',
      'amazon',
      'ontrac',
      'lasership',
      'canada-post',
      'purolator',
      'canpar',
      'dpd',
      'dpd-uk',
      'yodel',
      'yunexpress',
      'landmark',
      'old-dominion',
      'china-post',
      'royal-mail',
      TEST_CARRIER_CODE,
    ]) {
      expect(findCarrier(code)).toBeDefined();
    }
    expect(findCarrier(TEST_CARRIER_CODE)?.name).toBe('TrackMage Test Carrier');
  });

  it('has well-formed fields', () => {
    for (const c of CARRIERS) {
      expect(c.name.length).toBeGreaterThan(0);
      if (c.url !== null) expect(c.url).toMatch(/^https?:\/\/[^\s]+$/);
      if (c.trackingUrlTemplate !== null) {
        expect(c.trackingUrlTemplate).toMatch(/^https:\/\/[^\s]+$/);
        expect(c.trackingUrlTemplate).toContain('{trackingNumber}');
      }
      if (c.phone !== null) expect(c.phone).toMatch(/^\+[0-9]{6,15}$/);
      for (const iso of c.countryIso2Codes) expect(iso).toMatch(/^[A-Z]{2}$/);
    }
  });

  it('maps S10 country suffixes to one national post each', () => {
    expect(NATIONAL_POSTS.length).toBeGreaterThanOrEqual(60);
    expect(S10_COUNTRY_CARRIERS.size).toBe(NATIONAL_POSTS.length);
    const expected: Record<string, string> = {
      US: 'usps',
      GB: 'royal-mail',
      CN: 'china-post',
      DE: 'deutsche-post',
      FR: 'la-poste',
      CA: 'canada-post',
      AU: 'australia-post',
      JP: 'japan-post',
      NL: 'postnl',
      IT: 'poste-italiane',
      ES: 'correos',
      RU: 'russian-post',
      IN: 'india-post',
      BR: 'correios-brazil',
      SE: 'postnord-sweden',
      CH: 'swiss-post',
    };
    for (const [country, code] of Object.entries(expected)) {
      expect(S10_COUNTRY_CARRIERS.get(country)).toBe(code);
      expect(findCarrier(code)?.countryIso2Codes).toContain(country);
    }
  });

  it('finds carriers case-insensitively and answers undefined for unknown codes', () => {
    expect(findCarrier('UPS')?.code).toBe('ups');
    expect(findCarrier('nope')).toBeUndefined();
  });

  it('builds tracking URLs with the number URL-encoded', () => {
    expect(trackingUrlFor('ups', '1Z5R89390357567127')).toBe(
      'https://www.ups.com/track?tracknum=1Z5R89390357567127',
    );
    expect(trackingUrlFor(findCarrier('usps')!, 'A B&C')).toBe(
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=A%20B%26C',
    );
    expect(trackingUrlFor(TEST_CARRIER_CODE, 'TM200TM')).toBeNull();
    expect(trackingUrlFor('unknown', '1')).toBeNull();
  });
});
