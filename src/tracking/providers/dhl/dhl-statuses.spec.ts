import { findCarrier } from '../../carriers';
import { TRACKING_STATUS_CODES } from '../../statuses';
import { DHL_CARRIERS, DHL_SERVICE_CARRIERS, dhlCarrierOf } from './dhl-services';
import { DHL_PHRASE_RULES, DHL_STATUS_CODES, DHL_UNKNOWN_STATUS, dhlStatus } from './dhl-statuses';

describe('DHL status mapping', () => {
  it.each([
    ['pre-transit', 'pre_transit'],
    ['transit', 'in_transit'],
    ['delivered', 'delivered'],
    ['failure', 'unsuccessful_delivery'],
    ['unknown', 'no_info'],
  ])('statusCode %s is %s', (statusCode, status) => {
    expect(DHL_STATUS_CODES[statusCode]).toBe(status);
    expect(dhlStatus({ statusCode, status: 'SHIPMENT EVENT' })).toBe(status);
    expect(dhlStatus({ statusCode: statusCode.toUpperCase() })).toBe(status);
  });

  it('has a test row for every statusCode of the enum', () => {
    expect(Object.keys(DHL_STATUS_CODES).sort()).toEqual(
      ['delivered', 'failure', 'pre-transit', 'transit', 'unknown'].sort(),
    );
  });

  it('maps only to our twelve statuses', () => {
    for (const s of [
      ...Object.values(DHL_STATUS_CODES),
      ...DHL_PHRASE_RULES.map((r) => r.status),
      DHL_UNKNOWN_STATUS,
    ]) {
      expect(TRACKING_STATUS_CODES).toContain(s);
    }
  });

  it.each([
    ['transit', 'Out for delivery', 'delivery_in_progress'],
    ['transit', 'With delivery courier', 'delivery_in_progress'],
    ['transit', 'The shipment has been loaded onto the delivery vehicle', 'delivery_in_progress'],
    ['transit', 'The shipment is being delivered today', 'delivery_in_progress'],
    ['transit', 'The shipment is ready for pick-up at the Parcelshop', 'available_for_pickup'],
    ['transit', 'Ready for pickup at the DHL ServicePoint', 'available_for_pickup'],
    ['failure', 'Awaiting collection by recipient as requested', 'available_for_pickup'],
    ['transit', 'The shipment can be picked up from the retail outlet', 'available_for_pickup'],
    ['failure', 'The shipment is being returned to the sender', 'return_to_sender'],
    ['transit', 'Returned to shipper', 'return_to_sender'],
  ])('%s worded "%s" is %s', (statusCode, description, status) => {
    expect(dhlStatus({ statusCode, description })).toBe(status);
  });

  it('has one wording tested per phrase rule, and phrases never override a delivery', () => {
    expect(DHL_PHRASE_RULES).toHaveLength(3);
    expect(
      dhlStatus({ statusCode: 'delivered', description: 'Delivered - out for delivery' }),
    ).toBe('delivered');
    expect(dhlStatus({ statusCode: 'pre-transit', description: 'Ready for pickup' })).toBe(
      'pre_transit',
    );
  });

  it('reads the status word too, not only the description', () => {
    expect(dhlStatus({ statusCode: 'transit', status: 'WITH DELIVERY COURIER' })).toBe(
      'delivery_in_progress',
    );
  });

  it('reads a delivery of a returned shipment as return_to_sender', () => {
    expect(dhlStatus({ statusCode: 'delivered', returnFlag: true })).toBe('return_to_sender');
    expect(dhlStatus({ statusCode: 'transit', returnFlag: true })).toBe('in_transit');
  });

  it('reads a missing or unknown statusCode as in_transit', () => {
    expect(dhlStatus({})).toBe('in_transit');
    expect(dhlStatus({ statusCode: 'teleported' })).toBe('in_transit');
  });
});

describe('DHL services to carrier codes', () => {
  it.each(Object.entries(DHL_SERVICE_CARRIERS))('service %s is carrier %s', (service, carrier) => {
    expect(dhlCarrierOf(service)).toBe(carrier);
    expect(findCarrier(carrier)).toBeDefined();
  });

  it('covers every service of the UTAPI enum', () => {
    expect(Object.keys(DHL_SERVICE_CARRIERS).sort()).toEqual(
      [
        'dgf',
        'dsc',
        'ecommerce',
        'ecommerce-apac',
        'ecommerce-europe',
        'ecommerce-ppl',
        'ecommerce-iberia',
        'express',
        'freight',
        'parcel-de',
        'parcel-nl',
        'parcel-pl',
        'parcel-uk',
        'post-de',
        'post-international',
        'sameday',
        'svb',
      ].sort(),
    );
  });

  it('names unknown services dhl, and tracks our three DHL carriers', () => {
    expect(dhlCarrierOf('drone')).toBe('dhl');
    expect(dhlCarrierOf(undefined)).toBe('dhl');
    expect([...DHL_CARRIERS].sort()).toEqual(['deutsche-post', 'dhl', 'dhl-ecommerce']);
  });
});
