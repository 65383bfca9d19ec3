import type { TrackingStatusCode } from '../tracking/statuses';
import { LATENCY_BASE, PERF, SPANS, TRANSIT_BASE } from './analytics/carrier-performance';
import {
  addToStats,
  contributionOf,
  COVERAGE_STRIDE,
  nextPromises,
  performanceRowsOf,
  sameContribution,
  type ShipmentFacts,
} from './contribution';
import { bucketOf, DAY_MS, HOUR_MS } from './model/buckets';
import { journeyOf } from './model/stages';
import {
  COVERAGE,
  decodeStatIndex,
  MemoryStats,
  REMAINING,
  SILENCE,
  statIndex,
} from './model/stats';

const T0 = Date.parse('2025-03-03T08:00:00Z');
const at = (hours: number) => new Date(T0 + hours * HOUR_MS);

function facts(
  status: TrackingStatusCode | null,
  events: Array<[number, TrackingStatusCode]>,
  extra: Partial<ShipmentFacts> = {},
): ShipmentFacts {
  return {
    createdAt: at(0),
    status,
    checkpoints: events.map(([h, s]) => ({ at: at(h), status: s })),
    carrier: 'dhl',
    originCountry: 'DE',
    destinationCountry: 'DE',
    postcode: '10115',
    ...extra,
  };
}

const deliveredParcel = facts('delivered', [
  [1, 'pre_transit'],
  [20, 'in_transit'],
  [40, 'delivery_in_progress'],
  [45, 'delivered'],
]);

describe('contribution of a shipment', () => {
  it('of a parcel on its way: only its analytics counts', () => {
    const c = contributionOf(facts('in_transit', [[20, 'in_transit']]), {
      promises: null,
      stats: new MemoryStats(),
    });
    expect(c.keys).toEqual(['dhl|DE|DE|10', 'dhl|DE|DE', 'dhl|DE', 'dhl', '']);
    expect(c.statIdx).toEqual([]);
    expect(c.coverageIdx).toEqual([]);
    expect(c.day).toBe('2025-03-03');
    expect(c.perfIdx).toEqual([
      PERF.shipments,
      PERF.shipped,
      LATENCY_BASE + bucketOf(20 * HOUR_MS),
    ]);
  });

  it('of a delivered parcel: time to delivery and longest silence per stage, coverage per window', () => {
    const c = contributionOf(deliveredParcel, {
      promises: { carrierDate: at(30), windowLatest: at(50) },
      stats: new MemoryStats(),
    });
    expect(c.statIdx).toEqual(
      [
        statIndex(0, REMAINING, bucketOf(45 * HOUR_MS)),
        statIndex(1, REMAINING, bucketOf(25 * HOUR_MS)),
        statIndex(2, REMAINING, bucketOf(5 * HOUR_MS)),
        statIndex(0, SILENCE, bucketOf(19 * HOUR_MS)),
        statIndex(1, SILENCE, bucketOf(20 * HOUR_MS)),
        statIndex(2, SILENCE, bucketOf(5 * HOUR_MS)),
      ].sort((a, b) => a - b),
    );
    // Windows at creation, in transit and out for delivery, all from the default (no history).
    expect(c.coverageIdx).toHaveLength(3);
    for (const ci of c.coverageIdx) {
      expect(Math.floor(ci / COVERAGE_STRIDE)).toBe(4);
      expect(decodeStatIndex(ci % COVERAGE_STRIDE).measure).toBe(COVERAGE);
    }
    expect(c.perfIdx).toEqual(
      [
        PERF.shipments,
        PERF.shipped,
        PERF.delivered,
        PERF.firstAttempt,
        PERF.onTimePredictionTrials,
        PERF.onTimePredictionHits,
        PERF.onTimeCarrierTrials,
        // delivered on 2025-03-05, the carrier said 2025-03-04: late.
        TRANSIT_BASE + bucketOf(25 * HOUR_MS),
        LATENCY_BASE + bucketOf(20 * HOUR_MS),
      ].sort((a, b) => a - b),
    );
  });

  it("counts a delivered parcel's coverage once: later changes keep it", () => {
    const stats = new MemoryStats();
    const first = contributionOf(deliveredParcel, { promises: null, stats });
    // Lots of history now, which would give other windows.
    for (let i = 0; i < 100; i++) addToStats(stats, first);
    const again = contributionOf(deliveredParcel, { promises: null, stats, previous: first });
    expect(again.coverageIdx).toEqual(first.coverageIdx);
    const fresh = contributionOf(deliveredParcel, { promises: null, stats });
    expect(fresh.coverageIdx.map((ci) => Math.floor(ci / COVERAGE_STRIDE))).toEqual([0, 0, 0]);
  });

  it('adds to the stats at every level with a key, coverage only at its own level; negation undoes it', () => {
    const stats = new MemoryStats();
    const c = contributionOf(deliveredParcel, { promises: null, stats: new MemoryStats() });
    addToStats(stats, c);
    for (let level = 0; level < 4; level++)
      expect(stats.vector(level, c.keys[level]!)!.total(1, REMAINING)).toBe(1);
    expect(stats.vector(4, '')!.coverage(0)).toMatchObject({ trials: 1 });
    expect(stats.vector(1, c.keys[1]!)!.coverage(0).trials).toBe(0);
    addToStats(stats, c, -1);
    for (const { vector } of stats.keys()) expect(vector.entries().idx).toEqual([]);
  });

  it('goes to the block of its creation day at every span, under its destination and under "*"', () => {
    const c = contributionOf(deliveredParcel, { promises: null, stats: new MemoryStats() });
    const rows = performanceRowsOf(c);
    expect(rows).toHaveLength(SPANS.length * 2);
    expect(new Set(rows.map((r) => r.destination))).toEqual(new Set(['DE', '*']));
    for (const r of rows) expect(r.day % r.span).toBe(0);
  });
});

describe('promises', () => {
  it('keep the first carrier date and the first window after shipping', () => {
    const window = { earliest: at(30), likely: at(40), latest: at(50) };
    const label = facts('pre_transit', [[1, 'pre_transit']], { carrierDate: at(70) });
    const p1 = nextPromises(null, label, journeyOf(label), window);
    expect(p1).toEqual({ carrierDate: at(70), windowLatest: null });
    const moving = facts('in_transit', [[20, 'in_transit']], { carrierDate: at(60) });
    const p2 = nextPromises(p1, moving, journeyOf(moving), window);
    expect(p2).toEqual({ carrierDate: at(70), windowLatest: at(50) });
    const later = nextPromises(p2, moving, journeyOf(moving), {
      ...window,
      latest: new Date(T0 + 9 * DAY_MS),
    });
    expect(later).toEqual(p2);
  });
});

describe('sameContribution', () => {
  const delivered = facts('delivered', [
    [2, 'in_transit'],
    [30, 'delivered'],
  ]);
  const of = (f: ShipmentFacts) => ({
    contribution: contributionOf(f, { promises: null, stats: new MemoryStats() }),
    promises: { carrierDate: null, windowLatest: at(40) },
  });

  it('is true for the same facts, dates compared by time, not identity', () => {
    const a = of(delivered);
    const b = of(delivered);
    expect(sameContribution(a, b)).toBe(true);
    const stored = { ...a, promises: { carrierDate: null, windowLatest: new Date(at(40)) } };
    expect(sameContribution(stored, b)).toBe(true);
  });

  it('is false when a column or a promise differs', () => {
    const a = of(delivered);
    expect(sameContribution(a, of(facts('in_transit', [[2, 'in_transit']])))).toBe(false);
    expect(sameContribution(a, of({ ...delivered, carrier: 'ups' }))).toBe(false);
    expect(sameContribution(a, { ...a, promises: { ...a.promises, carrierDate: at(41) } })).toBe(
      false,
    );
    expect(sameContribution(a, { ...a, promises: { ...a.promises, windowLatest: null } })).toBe(
      false,
    );
  });

  it('compares every stored array entry by entry, a missing key as null', () => {
    const a = of(delivered);
    const c = a.contribution;
    const with_ = (over: Partial<typeof c>) => ({ ...a, contribution: { ...c, ...over } });
    expect(sameContribution(a, with_({ statIdx: [...c.statIdx, 999] }))).toBe(false);
    expect(sameContribution(a, with_({ coverageIdx: [...c.coverageIdx, 1] }))).toBe(false);
    expect(sameContribution(a, with_({ perfIdx: c.perfIdx.map((i) => i + 1) }))).toBe(false);
    expect(sameContribution(a, with_({ keys: c.keys.map((k) => k && `${k}x`) }))).toBe(false);
    expect(sameContribution(a, with_({ day: '2025-03-04' }))).toBe(false);
    expect(sameContribution(a, with_({ destination: 'FR' }))).toBe(false);
    const holes = with_({ keys: [...c.keys, null] });
    const missing = with_({ keys: [...c.keys, undefined as unknown as null] });
    expect(sameContribution(holes, missing)).toBe(true);
    expect(sameContribution(a, with_({ statIdx: [...c.statIdx] }))).toBe(true);
  });
});
