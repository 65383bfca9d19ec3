import { SEVENTEEN_TRACK_SUB_STATUSES, seventeenTrackStatus } from './seventeen-track-statuses';

/** Every 17TRACK v2.2 (status, sub-status) pair and the tracking status it must give. */
const ROWS: Array<[main: string, sub: string, expected: string]> = [
  ['NotFound', 'NotFound_Other', 'no_info'],
  ['NotFound', 'NotFound_InvalidCode', 'error'],
  ['InfoReceived', 'InfoReceived', 'pre_transit'],
  ['InTransit', 'InTransit_PickedUp', 'in_transit'],
  ['InTransit', 'InTransit_Other', 'in_transit'],
  ['InTransit', 'InTransit_Departure', 'in_transit'],
  ['InTransit', 'InTransit_Arrival', 'in_transit'],
  ['InTransit', 'InTransit_CustomsProcessing', 'in_transit'],
  ['InTransit', 'InTransit_CustomsReleased', 'in_transit'],
  ['InTransit', 'InTransit_CustomsRequiringInformation', 'in_transit'],
  ['Expired', 'Expired_Other', 'expired'],
  ['AvailableForPickup', 'AvailableForPickup_Other', 'available_for_pickup'],
  ['OutForDelivery', 'OutForDelivery_Other', 'delivery_in_progress'],
  ['DeliveryFailure', 'DeliveryFailure_Other', 'unsuccessful_delivery'],
  ['DeliveryFailure', 'DeliveryFailure_NoBody', 'unsuccessful_delivery'],
  ['DeliveryFailure', 'DeliveryFailure_Security', 'unsuccessful_delivery'],
  ['DeliveryFailure', 'DeliveryFailure_Rejected', 'unsuccessful_delivery'],
  ['DeliveryFailure', 'DeliveryFailure_InvalidAddress', 'unsuccessful_delivery'],
  ['Delivered', 'Delivered_Other', 'delivered'],
  ['Exception', 'Exception_Other', 'error'],
  ['Exception', 'Exception_Returning', 'return_to_sender'],
  ['Exception', 'Exception_Returned', 'return_to_sender'],
  ['Exception', 'Exception_NoBody', 'error'],
  ['Exception', 'Exception_Security', 'error'],
  ['Exception', 'Exception_Damage', 'error'],
  ['Exception', 'Exception_Rejected', 'error'],
  ['Exception', 'Exception_Delayed', 'error'],
  ['Exception', 'Exception_Lost', 'error'],
  ['Exception', 'Exception_Destroyed', 'error'],
  ['Exception', 'Exception_Cancel', 'cancelled'],
];

describe('17TRACK status mapping', () => {
  it.each(ROWS)('%s / %s -> %s', (main, sub, expected) => {
    expect(seventeenTrackStatus(main, sub)).toBe(expected);
  });

  it('covers the 30 documented sub-statuses, no more', () => {
    expect(Object.keys(SEVENTEEN_TRACK_SUB_STATUSES).sort()).toEqual(
      ROWS.map(([, sub]) => sub).sort(),
    );
  });

  it.each([
    ['NotFound', 'no_info'],
    ['InfoReceived', 'pre_transit'],
    ['InTransit', 'in_transit'],
    ['Expired', 'expired'],
    ['AvailableForPickup', 'available_for_pickup'],
    ['OutForDelivery', 'delivery_in_progress'],
    ['DeliveryFailure', 'unsuccessful_delivery'],
    ['Delivered', 'delivered'],
    ['Exception', 'error'],
  ])('falls back to the main status %s -> %s for an unknown sub-status', (main, expected) => {
    expect(seventeenTrackStatus(main, `${main}_SomethingNew`)).toBe(expected);
  });

  it.each([
    ['PickedUp', 'in_transit'],
    ['Departure', 'in_transit'],
    ['Arrival', 'in_transit'],
    ['Returning', 'return_to_sender'],
    ['Returned', 'return_to_sender'],
  ])('maps the event stage %s -> %s', (stage, expected) => {
    expect(seventeenTrackStatus(stage, null)).toBe(expected);
  });

  it('knows nothing of unknown words or inherited keys', () => {
    expect(seventeenTrackStatus('Teleported', 'Teleported_Other')).toBeNull();
    expect(seventeenTrackStatus('constructor', 'toString')).toBeNull();
    expect(seventeenTrackStatus(null, null)).toBeNull();
  });
});
