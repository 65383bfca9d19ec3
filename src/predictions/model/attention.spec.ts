import type { TrackingStatusCode } from '../../tracking/statuses';
import { attentionOf, DECIDABLE_STATUSES, isDecidable, stalledAfter } from './attention';
import { bucketOf, DAY_MS, HOUR_MS } from './buckets';
import { DEFAULT_SILENCE_P95_MS } from './defaults';
import { laneKeys } from './lanes';
import { IN_TRANSIT, journeyOf, LABEL } from './stages';
import { MemoryStats, SILENCE, statIndex } from './stats';

const T0 = Date.parse('2025-03-03T08:00:00Z');
const keys = laneKeys({
  carrier: 'ups',
  originCountry: 'US',
  destinationCountry: 'US',
  postcode: null,
});
const settings = { waitingDays: 3 };
const at = (days: number) => new Date(T0 + days * DAY_MS);

function shipment(status: TrackingStatusCode, events: Array<[number, TrackingStatusCode]>) {
  return journeyOf({
    createdAt: at(0),
    status,
    checkpoints: events.map(([d, s]) => ({ at: at(d), status: s })),
  });
}

const window = (latestDays: number) => ({
  earliest: at(latestDays - 2),
  likely: at(latestDays - 1),
  latest: at(latestDays),
});

describe('stalled threshold', () => {
  it("is the 95th percentile of the lane's longest silences once there are 40, else the default", () => {
    const stats = new MemoryStats();
    expect(stalledAfter(stats, keys, IN_TRANSIT)).toBe(DEFAULT_SILENCE_P95_MS[IN_TRANSIT]);
    stats.add(1, keys[1]!, [statIndex(IN_TRANSIT, SILENCE, bucketOf(10 * HOUR_MS))], [37]);
    stats.add(1, keys[1]!, [statIndex(IN_TRANSIT, SILENCE, bucketOf(30 * HOUR_MS))], [2]);
    expect(stalledAfter(stats, keys, IN_TRANSIT)).toBe(DEFAULT_SILENCE_P95_MS[IN_TRANSIT]);
    stats.add(1, keys[1]!, [statIndex(IN_TRANSIT, SILENCE, bucketOf(30 * HOUR_MS))], [1]);
    // 40 parcels, 3 of them silent for 30-32 h: the 95th percentile is a third into that bucket.
    const threshold = stalledAfter(stats, keys, IN_TRANSIT);
    expect(threshold).toBeCloseTo(30 * HOUR_MS + (2 * HOUR_MS) / 3, -1);
  });
});

describe('attention', () => {
  const stats = new MemoryStats();

  it('flags exceptions and nothing else for error statuses', () => {
    for (const status of ['error', 'expired'] as const)
      expect(
        attentionOf(
          { status, journey: shipment(status, [[1, status]]), keys, prediction: null },
          stats,
          settings,
          at(2),
        ),
      ).toEqual({ codes: ['exception'], primary: 'exception', recheckAt: null });
  });

  it('flags nothing for a delivered parcel', () => {
    const journey = shipment('delivered', [
      [1, 'in_transit'],
      [2, 'delivered'],
    ]);
    expect(
      attentionOf(
        { status: 'delivered', journey, keys, prediction: window(1) },
        stats,
        settings,
        at(9),
      ),
    ).toEqual({ codes: [], primary: null, recheckAt: null });
  });

  it('calls a silent parcel stalled past its threshold, and says when to look again before', () => {
    const journey = shipment('in_transit', [[1, 'in_transit']]);
    const threshold = DEFAULT_SILENCE_P95_MS[IN_TRANSIT];
    const input = { status: 'in_transit' as const, journey, keys, prediction: window(30) };
    const before = attentionOf(input, stats, settings, new Date(T0 + DAY_MS + threshold));
    expect(before.codes).toEqual([]);
    expect(before.recheckAt).toEqual(new Date(T0 + DAY_MS + threshold + 1));
    const after = attentionOf(input, stats, settings, new Date(T0 + DAY_MS + threshold + 1));
    expect(after.codes).toEqual(['stalled']);
    expect(after.recheckAt).toEqual(new Date(at(30).getTime() + 1));
  });

  it('applies the label stage its own threshold: a label nobody scanned', () => {
    const journey = shipment('pre_transit', [[0, 'pre_transit']]);
    const late = at(DEFAULT_SILENCE_P95_MS[LABEL] / DAY_MS + 0.1);
    expect(
      attentionOf({ status: 'pre_transit', journey, keys, prediction: null }, stats, settings, late)
        .codes,
    ).toEqual(['stalled']);
  });

  it('calls a parcel late past its window or its promised date, whichever comes first', () => {
    const journey = shipment('in_transit', [
      [1, 'in_transit'],
      [3.5, 'in_transit'],
    ]);
    const input = { status: 'in_transit' as const, journey, keys, prediction: window(5) };
    expect(attentionOf(input, stats, settings, at(4.9)).codes).toEqual([]);
    expect(attentionOf(input, stats, settings, at(4.9)).recheckAt).toEqual(
      new Date(at(5).getTime() + 1),
    );
    expect(attentionOf(input, stats, settings, at(5.1)).codes).toEqual(['late']);
    expect(attentionOf({ ...input, promisedAt: at(4) }, stats, settings, at(4.5)).codes).toEqual([
      'late',
    ]);
  });

  it('calls a parcel waiting at a pickup point or after a failed attempt past N days', () => {
    const pickup = shipment('available_for_pickup', [
      [1, 'in_transit'],
      [2, 'available_for_pickup'],
    ]);
    const input = {
      status: 'available_for_pickup' as const,
      journey: pickup,
      keys,
      prediction: window(20),
    };
    expect(attentionOf(input, stats, settings, at(4.9)).codes).toEqual([]);
    expect(attentionOf(input, stats, settings, at(5.1)).codes).toEqual(['waiting']);
    expect(attentionOf(input, stats, { waitingDays: 7 }, at(5.1)).codes).toEqual([]);
    const failed = shipment('unsuccessful_delivery', [
      [1, 'in_transit'],
      [2, 'delivery_in_progress'],
      [2.2, 'unsuccessful_delivery'],
    ]);
    expect(
      attentionOf(
        { status: 'unsuccessful_delivery', journey: failed, keys, prediction: window(20) },
        stats,
        settings,
        at(5.3),
      ).codes,
    ).toEqual(['waiting']);
  });

  it('lists every rule that applies, the most urgent first', () => {
    const journey = shipment('in_transit', [[1, 'in_transit']]);
    const a = attentionOf(
      { status: 'in_transit', journey, keys, prediction: window(3) },
      stats,
      settings,
      at(20),
    );
    expect(a.codes).toEqual(['stalled', 'late']);
    expect(a.primary).toBe('stalled');
    expect(a.recheckAt).toBeNull();
  });
});

describe('decidable statuses (what a backfill gives a first decision)', () => {
  it('are the statuses with a stage and the exceptions, and a shipment without a status', () => {
    expect([...DECIDABLE_STATUSES].sort()).toEqual(
      [
        'available_for_pickup',
        'delivery_in_progress',
        'error',
        'expired',
        'in_transit',
        'no_info',
        'pre_transit',
        'transit_limit_exceeded',
        'unsuccessful_delivery',
      ].sort(),
    );
    expect(isDecidable(null)).toBe(true);
    for (const final of ['delivered', 'cancelled', 'return_to_sender'] as const)
      expect(isDecidable(final)).toBe(false);
  });
});
