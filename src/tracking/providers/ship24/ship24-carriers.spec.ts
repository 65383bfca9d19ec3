import { findCarrier } from '../../carriers';
import {
  carrierFromShip24Courier,
  firstCourierCode,
  SHIP24_COURIER_CARRIERS,
} from './ship24-carriers';

describe('Ship24 courier codes', () => {
  it.each([
    ['ups', 'ups'],
    ['fedex', 'fedex'],
    ['dhl', 'dhl'],
    ['usps', 'usps'],
    ['yunexpress', 'yunexpress'],
    ['UPS', 'ups'],
    ['us-post', 'usps'],
    ['dhl-express', 'dhl'],
    ['dhl-ecommerce-us', 'dhl-ecommerce'],
    ['gb-royal-mail', 'royal-mail'],
    ['de-dhl', 'deutsche-post'],
    ['fr-colissimo', 'la-poste'],
    ['nl-post', 'postnl'],
    ['cn-china-post', 'china-post'],
    ['china-ems', 'china-post'],
    ['ca-canada-post', 'canada-post'],
    ['au-australia-post', 'australia-post'],
    ['uk-evri', 'evri'],
    ['hermes', 'evri'],
  ])('%s -> %s', (code, ours) => {
    expect(carrierFromShip24Courier(code)).toBe(ours);
  });

  it.each([['some-local-courier'], [''], [null], [7], ['constructor']])('%p -> null', (code) => {
    expect(carrierFromShip24Courier(code)).toBeNull();
  });

  it('maps every row to a carrier of our catalogue', () => {
    for (const ours of Object.values(SHIP24_COURIER_CARRIERS)) {
      expect(findCarrier(ours)?.code).toBe(ours);
    }
  });

  it('reads the first of up to three courier codes', () => {
    expect(firstCourierCode(['us-post', 'ups'])).toBe('us-post');
    expect(firstCourierCode('fedex')).toBe('fedex');
    expect(firstCourierCode([])).toBeNull();
    expect(firstCourierCode(null)).toBeNull();
  });
});
