import { TRACKING_STATUS_CODES } from '../../statuses';
import {
  AFTERSHIP_SUBTAG_STATUSES,
  AFTERSHIP_TAG_STATUSES,
  mapAfterShipStatus,
} from './aftership-statuses';

describe('AfterShip status mapping', () => {
  it.each([
    ['Pending', 'no_info'],
    ['InfoReceived', 'pre_transit'],
    ['InTransit', 'in_transit'],
    ['OutForDelivery', 'delivery_in_progress'],
    ['AttemptFail', 'unsuccessful_delivery'],
    ['Delivered', 'delivered'],
    ['AvailableForPickup', 'available_for_pickup'],
    ['Exception', 'error'],
    ['Expired', 'expired'],
  ])('status %s -> %s', (tag, expected) => {
    expect(mapAfterShipStatus(tag, null)).toEqual({ status: expected, rawStatus: tag });
  });

  it.each([
    ['Pending', 'Pending_001', 'no_info'],
    ['Pending', 'Pending_002', 'no_info'],
    ['Pending', 'Pending_003', 'no_info'],
    ['Pending', 'Pending_004', 'no_info'],
    ['Pending', 'Pending_005', 'no_info'],
    ['Pending', 'Pending_006', 'no_info'],
    ['InfoReceived', 'InfoReceived_001', 'pre_transit'],
    ['InTransit', 'InTransit_001', 'in_transit'],
    ['InTransit', 'InTransit_002', 'in_transit'],
    ['InTransit', 'InTransit_003', 'in_transit'],
    ['InTransit', 'InTransit_004', 'in_transit'],
    ['InTransit', 'InTransit_005', 'in_transit'],
    ['InTransit', 'InTransit_006', 'in_transit'],
    ['InTransit', 'InTransit_007', 'in_transit'],
    ['InTransit', 'InTransit_008', 'in_transit'],
    ['InTransit', 'InTransit_009', 'in_transit'],
    ['OutForDelivery', 'OutForDelivery_001', 'delivery_in_progress'],
    ['OutForDelivery', 'OutForDelivery_002', 'delivery_in_progress'],
    ['OutForDelivery', 'OutForDelivery_003', 'delivery_in_progress'],
    ['OutForDelivery', 'OutForDelivery_004', 'delivery_in_progress'],
    ['AttemptFail', 'AttemptFail_001', 'unsuccessful_delivery'],
    ['AttemptFail', 'AttemptFail_002', 'unsuccessful_delivery'],
    ['AttemptFail', 'AttemptFail_003', 'unsuccessful_delivery'],
    ['Delivered', 'Delivered_001', 'delivered'],
    ['Delivered', 'Delivered_002', 'delivered'],
    ['Delivered', 'Delivered_003', 'delivered'],
    ['Delivered', 'Delivered_004', 'delivered'],
    ['Delivered', 'Delivered_005', 'delivered'],
    ['AvailableForPickup', 'AvailableForPickup_001', 'available_for_pickup'],
    ['Exception', 'Exception_001', 'error'],
    ['Exception', 'Exception_002', 'unsuccessful_delivery'],
    ['Exception', 'Exception_003', 'unsuccessful_delivery'],
    ['Exception', 'Exception_004', 'in_transit'],
    ['Exception', 'Exception_005', 'in_transit'],
    ['Exception', 'Exception_006', 'in_transit'],
    ['Exception', 'Exception_007', 'unsuccessful_delivery'],
    ['Exception', 'Exception_008', 'unsuccessful_delivery'],
    ['Exception', 'Exception_009', 'error'],
    ['Exception', 'Exception_010', 'return_to_sender'],
    ['Exception', 'Exception_011', 'return_to_sender'],
    ['Exception', 'Exception_012', 'error'],
    ['Exception', 'Exception_013', 'error'],
    ['Exception', 'Exception_016', 'in_transit'],
    ['Exception', 'Exception_017', 'in_transit'],
    ['Exception', 'Exception_018', 'in_transit'],
    ['Expired', 'Expired_001', 'expired'],
  ])('%s/%s -> %s', (tag, subtag, expected) => {
    expect(mapAfterShipStatus(tag, subtag)).toEqual({
      status: expected,
      rawStatus: `${tag}/${subtag}`,
    });
  });

  it('has a row for every status and sub-status, each one of our twelve codes', () => {
    const rows = { ...AFTERSHIP_TAG_STATUSES, ...AFTERSHIP_SUBTAG_STATUSES };
    expect(Object.keys(AFTERSHIP_TAG_STATUSES)).toHaveLength(9);
    expect(Object.keys(AFTERSHIP_SUBTAG_STATUSES)).toHaveLength(46);
    for (const status of Object.values(rows)) expect(TRACKING_STATUS_CODES).toContain(status);
  });

  it('falls back from an undocumented sub-status to its status, then to in_transit', () => {
    expect(mapAfterShipStatus('Exception', 'Exception_014').status).toBe('error');
    expect(mapAfterShipStatus(null, 'Delivered_009')).toEqual({
      status: 'delivered',
      rawStatus: 'Delivered_009',
    });
    expect(mapAfterShipStatus('Teleported', null).status).toBe('in_transit');
    expect(mapAfterShipStatus(undefined, undefined)).toEqual({
      status: 'in_transit',
      rawStatus: null,
    });
  });

  it('never reads inherited properties as rows', () => {
    expect(mapAfterShipStatus('constructor', 'toString').status).toBe('in_transit');
  });
});
