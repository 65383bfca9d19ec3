import { TRACKING_STATUS_CODES } from '../../statuses';
import {
  UPS_PHRASE_RULES,
  UPS_STATUS_CODES,
  UPS_STATUS_TYPES,
  UPS_UNKNOWN_STATUS,
  upsRawStatus,
  upsStatus,
} from './ups-statuses';

describe('UPS status mapping', () => {
  it('maps only to our twelve statuses', () => {
    const targets = [
      ...Object.values(UPS_STATUS_CODES),
      ...Object.values(UPS_STATUS_TYPES),
      ...UPS_PHRASE_RULES.map((r) => r.status),
      UPS_UNKNOWN_STATUS,
    ];
    for (const t of targets) expect(TRACKING_STATUS_CODES).toContain(t);
  });

  describe.each([
    ['M', 'pre_transit'],
    ['MV', 'cancelled'],
    ['P', 'in_transit'],
    ['I', 'in_transit'],
    ['U', 'in_transit'],
    ['O', 'delivery_in_progress'],
    ['D', 'delivered'],
    ['X', 'unsuccessful_delivery'],
    ['RS', 'return_to_sender'],
  ])('type %s', (type, status) => {
    it(`is ${status}`, () => {
      expect(UPS_STATUS_TYPES[type]).toBe(status);
      expect(upsStatus({ type })).toBe(status);
      expect(upsStatus({ type: type.toLowerCase() })).toBe(status);
    });
  });

  it('has a test row for every type letter', () => {
    expect(Object.keys(UPS_STATUS_TYPES).sort()).toEqual(
      ['D', 'I', 'M', 'MV', 'O', 'P', 'RS', 'U', 'X'].sort(),
    );
  });

  describe.each([
    ['003', 'M', 'pre_transit'],
    ['005', 'I', 'in_transit'],
    ['071', 'I', 'in_transit'],
    ['021', 'I', 'delivery_in_progress'],
    ['011', 'D', 'delivered'],
  ])('3-digit code %s (type %s)', (statusCode, type, status) => {
    it(`is ${status}, whatever the type letter says`, () => {
      expect(UPS_STATUS_CODES[statusCode]).toBe(status);
      expect(upsStatus({ type, statusCode })).toBe(status);
      expect(upsStatus({ type: 'X', statusCode })).toBe(status);
    });
  });

  it('has a test row for every 3-digit code', () => {
    expect(Object.keys(UPS_STATUS_CODES).sort()).toEqual(['003', '005', '011', '021', '071']);
  });

  it.each([
    ['X', 'Returned to shipper', 'return_to_sender'],
    ['X', 'The package is being returned to the sender.', 'return_to_sender'],
    ['I', 'Returning to Sender: in transit', 'return_to_sender'],
    ['X', 'Delivered to UPS Access Point. Awaiting customer pickup', 'available_for_pickup'],
    ['I', 'Ready for pickup at the UPS Access Point', 'available_for_pickup'],
    ['X', 'Available for pick up at the customer center', 'available_for_pickup'],
  ])('type %s worded "%s" is %s', (type, description, status) => {
    expect(upsStatus({ type, description })).toBe(status);
  });

  it('keeps an exception that names no phrase as unsuccessful_delivery', () => {
    expect(
      upsStatus({ type: 'X', description: 'A severe weather condition delayed delivery' }),
    ).toBe('unsuccessful_delivery');
  });

  it('reads an unknown or missing type letter as in_transit', () => {
    expect(upsStatus({ type: 'ZZ' })).toBe('in_transit');
    expect(upsStatus({})).toBe('in_transit');
  });

  it('keeps the raw type/code/status code', () => {
    expect(upsRawStatus('I', 'OT', '021')).toBe('I/OT/021');
    expect(upsRawStatus('D', undefined, undefined)).toBe('D//');
    expect(upsRawStatus(null, '', undefined)).toBeNull();
  });
});
