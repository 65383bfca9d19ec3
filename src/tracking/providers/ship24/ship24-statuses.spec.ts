import { TRACKING_STATUS_CODES } from '../../statuses';
import {
  mapShip24Status,
  SHIP24_MILESTONE_STATUSES,
  SHIP24_STATUS_CODE_STATUSES,
} from './ship24-statuses';

describe('Ship24 status mapping', () => {
  it.each([
    ['pending', 'no_info'],
    ['info_received', 'pre_transit'],
    ['in_transit', 'in_transit'],
    ['out_for_delivery', 'delivery_in_progress'],
    ['failed_attempt', 'unsuccessful_delivery'],
    ['available_for_pickup', 'available_for_pickup'],
    ['delivered', 'delivered'],
    ['exception', 'error'],
  ])('milestone %s -> %s', (milestone, expected) => {
    expect(mapShip24Status(milestone, null)).toEqual({ status: expected, rawStatus: milestone });
  });

  it.each([
    ['info_received', 'data_order_cancelled', 'cancelled'],
    ['exception', 'delivery_back_to_sender', 'return_to_sender'],
    ['exception', 'exception_return_to_sender', 'return_to_sender'],
    // Documented examples that follow their milestone.
    ['delivered', 'delivery_delivered', 'delivered'],
    ['out_for_delivery', 'delivery_out_for_delivery', 'delivery_in_progress'],
    ['info_received', 'data_order_created', 'pre_transit'],
  ])('%s/%s -> %s', (milestone, code, expected) => {
    expect(mapShip24Status(milestone, code)).toEqual({
      status: expected,
      rawStatus: `${milestone}/${code}`,
    });
  });

  it('has a row for all 8 milestones, each one of our twelve codes', () => {
    expect(Object.keys(SHIP24_MILESTONE_STATUSES)).toHaveLength(8);
    const rows = { ...SHIP24_MILESTONE_STATUSES, ...SHIP24_STATUS_CODE_STATUSES };
    for (const status of Object.values(rows)) expect(TRACKING_STATUS_CODES).toContain(status);
  });

  it('maps what it does not know to in_transit and never reads inherited rows', () => {
    expect(mapShip24Status('teleported', null)).toEqual({
      status: 'in_transit',
      rawStatus: 'teleported',
    });
    expect(mapShip24Status(undefined, 'constructor').status).toBe('in_transit');
    expect(mapShip24Status(null, null)).toEqual({ status: 'in_transit', rawStatus: null });
  });
});
