import { findCarrier } from '../../carriers';
import {
  AFTERSHIP_CARRIER_SLUGS,
  AFTERSHIP_SLUG_CARRIERS,
  afterShipSlugForCarrier,
  carrierFromAfterShipSlug,
} from './aftership-carriers';

describe('AfterShip courier slugs', () => {
  it.each([
    ['ups', 'ups'],
    ['fedex', 'fedex'],
    ['usps', 'usps'],
    ['dhl', 'dhl'],
    ['royal-mail', 'royal-mail'],
    ['canada-post', 'canada-post'],
    ['china-post', 'china-post'],
    ['DHL', 'dhl'],
    ['dhl-global-mail', 'dhl-ecommerce'],
    ['amazon-shipping', 'amazon'],
    ['hermes', 'evri'],
    ['landmark-global', 'landmark'],
    ['china-ems', 'china-post'],
    ['deutsch-post', 'deutsche-post'],
    ['la-poste-colissimo', 'la-poste'],
    ['postnl-3s', 'postnl'],
    ['postnl-international', 'postnl'],
    ['spain-correos-es', 'correos'],
    ['portugal-ctt', 'ctt'],
    ['sweden-posten', 'postnord-sweden'],
    ['danmark-post', 'postnord-denmark'],
    ['norway-post', 'posten-norge'],
    ['taiwan-post', 'chunghwa-post'],
    ['malaysia-post', 'pos-malaysia'],
    ['brazil-correios', 'correios-brazil'],
    ['sapo', 'south-african-post-office'],
  ])('slug %s -> %s', (slug, ours) => {
    expect(carrierFromAfterShipSlug(slug)).toBe(ours);
  });

  it.each([['unrecognized'], ['some-local-courier'], [''], [null], [42], ['constructor']])(
    'slug %p is no carrier of ours',
    (slug) => {
      expect(carrierFromAfterShipSlug(slug)).toBeNull();
    },
  );

  it('maps every row to a carrier of our catalogue, both ways', () => {
    for (const ours of Object.values(AFTERSHIP_SLUG_CARRIERS)) {
      expect(findCarrier(ours)?.code).toBe(ours);
    }
    for (const [ours, slug] of Object.entries(AFTERSHIP_CARRIER_SLUGS)) {
      expect(findCarrier(ours)?.code).toBe(ours);
      expect(carrierFromAfterShipSlug(slug)).toBe(ours);
    }
  });

  it.each([
    ['ups', 'ups'],
    ['usps', 'usps'],
    ['dhl-ecommerce', 'dhl-global-mail'],
    ['deutsche-post', 'deutsch-post'],
    ['south-african-post-office', 'sapo'],
    ['tm-test', null],
    ['not-a-carrier', null],
    [null, null],
  ])('creates %p trackings with slug %p', (ours, slug) => {
    expect(afterShipSlugForCarrier(ours)).toBe(slug);
  });
});
