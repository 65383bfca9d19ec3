import type { TrackingStatusCode } from '../../tracking/statuses';
import {
  FAILED_ATTEMPT,
  IN_TRANSIT,
  journeyOf,
  LABEL,
  OUT_FOR_DELIVERY,
  PICKUP,
  stageChanges,
  stageOfStatus,
  timelineAt,
  type ParcelTimeline,
} from './stages';

const H = 3_600_000;
const T0 = Date.parse('2025-03-03T08:00:00Z');
const at = (hours: number) => new Date(T0 + hours * H);

function parcel(
  status: TrackingStatusCode | null,
  events: Array<[number, TrackingStatusCode]>,
  createdHours = 0,
): ParcelTimeline {
  return {
    createdAt: at(createdHours),
    status,
    checkpoints: events.map(([h, s]) => ({ at: at(h), status: s })),
  };
}

describe('stages', () => {
  it('map every tracking status to its stage, final ones to none', () => {
    expect(stageOfStatus(null)).toBe(LABEL);
    expect(stageOfStatus('no_info')).toBe(LABEL);
    expect(stageOfStatus('pre_transit')).toBe(LABEL);
    expect(stageOfStatus('in_transit')).toBe(IN_TRANSIT);
    expect(stageOfStatus('transit_limit_exceeded')).toBe(IN_TRANSIT);
    expect(stageOfStatus('delivery_in_progress')).toBe(OUT_FOR_DELIVERY);
    expect(stageOfStatus('unsuccessful_delivery')).toBe(FAILED_ATTEMPT);
    expect(stageOfStatus('available_for_pickup')).toBe(PICKUP);
    for (const s of ['delivered', 'error', 'expired', 'cancelled', 'return_to_sender'] as const)
      expect(stageOfStatus(s)).toBeNull();
  });
});

describe('journeyOf', () => {
  it('reads a door delivery: stage entries are the first checkpoints, in any input order', () => {
    const j = journeyOf(
      parcel('delivered', [
        [30, 'delivery_in_progress'],
        [1, 'pre_transit'],
        [20, 'in_transit'],
        [10, 'in_transit'],
        [35, 'delivered'],
      ]),
    );
    expect(j.stage).toBeNull();
    expect(j.entered).toEqual([T0, T0 + 10 * H, T0 + 30 * H, null, null]);
    expect(j.deliveredAt).toBe(T0 + 35 * H);
    expect(j.shippedAt).toBe(T0 + 10 * H);
    expect(j.failedAttempt).toBe(false);
    // Longest silences: label 0 -> 1 -> 10 h (9), in transit 10 -> 20 -> 30 (10), out 30 -> 35.
    expect(j.silences).toEqual([9 * H, 10 * H, 5 * H, null, null]);
  });

  it('counts a delivery without an out-for-delivery scan as entering that stage', () => {
    const j = journeyOf(
      parcel('delivered', [
        [5, 'in_transit'],
        [40, 'delivered'],
      ]),
    );
    expect(j.entered[OUT_FOR_DELIVERY]).toBe(T0 + 40 * H);
  });

  it('does not count a parcel that went to a pickup point as out for delivery', () => {
    const j = journeyOf(
      parcel('delivered', [
        [5, 'in_transit'],
        [30, 'available_for_pickup'],
        [70, 'delivered'],
      ]),
    );
    expect(j.entered[OUT_FOR_DELIVERY]).toBeNull();
    expect(j.entered[PICKUP]).toBe(T0 + 30 * H);
    expect(j.deliveredAt).toBe(T0 + 70 * H);
  });

  it('follows a failed attempt and a redelivery; the current stage runs from its latest run', () => {
    const tl = parcel('delivery_in_progress', [
      [5, 'in_transit'],
      [30, 'delivery_in_progress'],
      [36, 'unsuccessful_delivery'],
      [54, 'delivery_in_progress'],
    ]);
    const j = journeyOf(tl);
    expect(j.stage).toBe(OUT_FOR_DELIVERY);
    expect(j.entered[OUT_FOR_DELIVERY]).toBe(T0 + 30 * H);
    expect(j.entered[FAILED_ATTEMPT]).toBe(T0 + 36 * H);
    expect(j.currentSince).toBe(T0 + 54 * H);
    expect(j.lastEventAt).toBe(T0 + 54 * H);
    expect(j.failedAttempt).toBe(true);
    expect(j.deliveredAt).toBeNull();
  });

  it('ignores late pre-shipment checkpoints, as the status engine does', () => {
    const j = journeyOf(
      parcel('in_transit', [
        [5, 'in_transit'],
        [8, 'pre_transit'],
      ]),
    );
    expect(j.lastEventAt).toBe(T0 + 5 * H);
    expect(j.stage).toBe(IN_TRANSIT);
  });

  it('starts the label stage at the first checkpoint of a shipment created after it moved', () => {
    const j = journeyOf(parcel('in_transit', [[-30, 'in_transit']], 0));
    expect(j.entered[LABEL]).toBe(T0 - 30 * H);
    expect(j.entered[IN_TRANSIT]).toBe(T0 - 30 * H);
    // No silence from the creation: it came after the checkpoint.
    expect(j.silences[LABEL]).toBeNull();
  });

  it('knows returns and exceptions, and a delivery back to the sender is no delivery', () => {
    const returned = journeyOf(
      parcel('delivered', [
        [5, 'in_transit'],
        [30, 'available_for_pickup'],
        [200, 'return_to_sender'],
        [260, 'delivered'],
      ]),
    );
    expect(returned.returned).toBe(true);
    expect(returned.deliveredAt).toBeNull();
    const exception = journeyOf(
      parcel('error', [
        [5, 'in_transit'],
        [20, 'error'],
      ]),
    );
    expect(exception.exception).toBe(true);
    expect(exception.stage).toBeNull();
  });

  it('starts a parcel with nothing yet in the label stage at its creation', () => {
    const j = journeyOf(parcel(null, []));
    expect(j.stage).toBe(LABEL);
    expect(j.entered[LABEL]).toBe(T0);
    expect(j.currentSince).toBe(T0);
    expect(j.lastEventAt).toBe(T0);
  });
});

describe('what was known then', () => {
  const tl = parcel('delivered', [
    [1, 'pre_transit'],
    [10, 'in_transit'],
    [20, 'in_transit'],
    [30, 'delivery_in_progress'],
    [36, 'unsuccessful_delivery'],
    [54, 'delivery_in_progress'],
    [58, 'delivered'],
  ]);

  it('timelineAt keeps the checkpoints up to the moment and their status', () => {
    const then = timelineAt(tl, T0 + 25 * H);
    expect(then.status).toBe('in_transit');
    expect(then.checkpoints).toHaveLength(3);
    expect(timelineAt(tl, T0).status).toBeNull();
  });

  it('stageChanges lists the creation and every change of stage before the delivery', () => {
    expect(stageChanges(tl, T0 + 58 * H)).toEqual([
      { at: T0, stage: LABEL },
      { at: T0 + 10 * H, stage: IN_TRANSIT },
      { at: T0 + 30 * H, stage: OUT_FOR_DELIVERY },
      { at: T0 + 36 * H, stage: FAILED_ATTEMPT },
      { at: T0 + 54 * H, stage: OUT_FOR_DELIVERY },
    ]);
  });
});
