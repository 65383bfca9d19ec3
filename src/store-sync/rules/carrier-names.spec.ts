import { CARRIERS, findCarrier } from '../../tracking/carriers/carrier-catalogue';
import {
  CARRIER_NAME_ALIASES,
  carrierCodeForStoreName,
  normalizeCarrierName,
} from './carrier-names';

describe('carrierCodeForStoreName', () => {
  it.each([
    // Shopify tracking companies
    ['UPS', 'ups'],
    ['USPS', 'usps'],
    ['FedEx', 'fedex'],
    ['DHL Express', 'dhl'],
    ['DHL eCommerce', 'dhl-ecommerce'],
    ['Amazon Logistics US', 'amazon'],
    ['Canada Post', 'canada-post'],
    ['Royal Mail', 'royal-mail'],
    ['Australia Post', 'australia-post'],
    ['PostNL International', 'postnl'],
    ['YunExpress', 'yunexpress'],
    ['China Post', 'china-post'],
    // WooCommerce Shipment Tracking providers
    ['Fedex', 'fedex'],
    ['DPD.co.uk', 'dpd-uk'],
    ['TNT Express (consignment)', 'tnt'],
    ['Colissimo', 'la-poste'],
    ['Correos', 'correos'],
    ['Österreichische Post', 'austrian-post'],
    // BigCommerce tracking_carrier / shipping_provider codes
    ['auspost', 'australia-post'],
    ['canadapost', 'canada-post'],
    ['royalmail', 'royal-mail'],
    ['fedex', 'fedex'],
    ['usps', 'usps'],
    // our own codes
    ['dhl-ecommerce', 'dhl-ecommerce'],
    ['deutsche-post', 'deutsche-post'],
  ])('maps %j to %j', (name, code) => {
    expect(carrierCodeForStoreName(name)).toBe(code);
  });

  it.each([
    ['Hermes'],
    ['PostNord'],
    ['EMS'],
    ['Other'],
    ['My local courier'],
    [''],
    ['  '],
    [null],
  ])('leaves %j to detection', (name) => {
    expect(carrierCodeForStoreName(name)).toBeNull();
  });

  it('maps every catalogue carrier by its own code and name', () => {
    for (const carrier of CARRIERS) {
      expect(carrierCodeForStoreName(carrier.code)).toBe(carrier.code);
      const byName = carrierCodeForStoreName(carrier.name);
      // Two carriers never share a normalised name; if they did, the first code would win.
      expect(byName && findCarrier(byName)?.name).toBe(carrier.name);
    }
  });

  it('has aliases written normalised that point at catalogue carriers', () => {
    for (const [alias, code] of Object.entries(CARRIER_NAME_ALIASES)) {
      expect(findCarrier(code)).toBeDefined();
      expect(alias).toBe(normalizeCarrierName(alias));
    }
  });
});
