import { findCarrier } from '../../carriers';
import { carrierFromEasyPost, EASYPOST_CARRIERS, easyPostCarrierFor } from './easypost-carriers';

describe('EasyPost carrier names', () => {
  it.each([
    ['USPS', 'usps'],
    ['UPS', 'ups'],
    ['UPSMailInnovations', 'ups'],
    ['FedEx', 'fedex'],
    ['FedExSmartPost', 'fedex'],
    ['DHLExpress', 'dhl'],
    ['DHLeCommerce', 'dhl-ecommerce'],
    ['DhlEcs', 'dhl-ecommerce'],
    ['CanadaPost', 'canada-post'],
    ['Purolator', 'purolator'],
    ['OnTrac', 'ontrac'],
    ['LaserShip', 'lasership'],
    ['Canpar', 'canpar'],
    ['DPD', 'dpd'],
    ['DPDUK', 'dpd-uk'],
    ['Yodel', 'yodel'],
    ['Evri', 'evri'],
    ['RoyalMail', 'royal-mail'],
    ['AustraliaPost', 'australia-post'],
    ['AmazonShipping', 'amazon'],
    ['LandmarkGlobal', 'landmark'],
    ['GLS', 'gls'],
    ['Aramex', 'aramex'],
    ['Canada Post', 'canada-post'],
    ['tnt', 'tnt'],
  ])('%s -> %s', (name, ours) => {
    expect(carrierFromEasyPost(name)).toBe(ours);
  });

  it.each([['SomeLocalCourier'], [''], [null], ['constructor']])('%p -> null', (name) => {
    expect(carrierFromEasyPost(name)).toBeNull();
  });

  it('maps every row to a carrier of our catalogue, and names round-trip', () => {
    for (const ours of Object.values(EASYPOST_CARRIERS)) {
      expect(findCarrier(ours)?.code).toBe(ours);
    }
    for (const ours of ['usps', 'ups', 'fedex', 'dhl', 'dhl-ecommerce', 'royal-mail', 'amazon']) {
      expect(carrierFromEasyPost(easyPostCarrierFor(ours))).toBe(ours);
    }
  });

  it('names no carrier for ours it does not know', () => {
    expect(easyPostCarrierFor('tm-test')).toBeNull();
    expect(easyPostCarrierFor('constructor')).toBeNull();
    expect(easyPostCarrierFor(null)).toBeNull();
  });
});
