import { TRACKING_STATUS_CODES } from '../../statuses';
import {
  EASYPOST_STATUS_DETAILS,
  EASYPOST_STATUSES,
  FOLLOWS_STATUS,
  mapEasyPostStatus,
} from './easypost-statuses';

describe('EasyPost status mapping', () => {
  it.each([
    ['unknown', 'no_info'],
    ['pre_transit', 'pre_transit'],
    ['in_transit', 'in_transit'],
    ['out_for_delivery', 'delivery_in_progress'],
    ['delivered', 'delivered'],
    ['available_for_pickup', 'available_for_pickup'],
    ['return_to_sender', 'return_to_sender'],
    ['failure', 'unsuccessful_delivery'],
    ['cancelled', 'cancelled'],
    ['error', 'error'],
  ])('status %s -> %s', (status, expected) => {
    expect(mapEasyPostStatus(status, null)).toEqual({ status: expected, rawStatus: status });
  });

  // Each detail under a status it does not agree with, so following and overriding both show.
  it.each([
    ['address_correction', 'pre_transit'],
    ['arrived_at_destination', 'pre_transit'],
    ['arrived_at_facility', 'pre_transit'],
    ['arrived_at_pickup_location', 'available_for_pickup'],
    ['awaiting_information', 'pre_transit'],
    ['cancelled', 'cancelled'],
    ['damaged', 'error'],
    ['delayed', 'pre_transit'],
    ['delivery_exception', 'pre_transit'],
    ['departed_facility', 'pre_transit'],
    ['departed_origin_facility', 'pre_transit'],
    ['expired', 'expired'],
    ['failure', 'pre_transit'],
    ['held', 'pre_transit'],
    ['in_transit', 'pre_transit'],
    ['label_created', 'pre_transit'],
    ['lost', 'error'],
    ['missorted', 'pre_transit'],
    ['out_for_delivery', 'delivery_in_progress'],
    ['received_at_destination_facility', 'pre_transit'],
    ['received_at_origin_facility', 'pre_transit'],
    ['refused', 'pre_transit'],
    ['return', 'return_to_sender'],
    ['status_update', 'pre_transit'],
    ['transferred_to_destination_carrier', 'pre_transit'],
    ['unknown', 'pre_transit'],
  ])('pre_transit/%s -> %s', (detail, expected) => {
    expect(mapEasyPostStatus('pre_transit', detail)).toEqual({
      status: expected,
      rawStatus: `pre_transit/${detail}`,
    });
  });

  it('has a row for every status and detail, each ours or following the status', () => {
    expect(Object.keys(EASYPOST_STATUSES)).toHaveLength(10);
    expect(Object.keys(EASYPOST_STATUS_DETAILS)).toHaveLength(26);
    for (const status of Object.values(EASYPOST_STATUSES)) {
      expect(TRACKING_STATUS_CODES).toContain(status);
    }
    for (const status of Object.values(EASYPOST_STATUS_DETAILS)) {
      if (status !== FOLLOWS_STATUS) expect(TRACKING_STATUS_CODES).toContain(status);
    }
  });

  it('follows the status for an unknown detail, and maps the unknown to in_transit', () => {
    expect(mapEasyPostStatus('failure', 'weather').status).toBe('unsuccessful_delivery');
    expect(mapEasyPostStatus('teleported', null).status).toBe('in_transit');
    expect(mapEasyPostStatus('constructor', 'toString').status).toBe('in_transit');
    expect(mapEasyPostStatus(null, null)).toEqual({ status: 'in_transit', rawStatus: null });
  });
});
