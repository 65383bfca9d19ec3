import { bucketOf, DAY_MS, HOUR_MS } from './buckets';
import { laneKeys } from './lanes';
import {
  confidenceOf,
  expectedDeliveryDate,
  predictDelivery,
  stageWindow,
  windowHolds,
  windowMoved,
} from './predict';
import { IN_TRANSIT, journeyOf, LABEL, OUT_FOR_DELIVERY, type ParcelTimeline } from './stages';
import { COVERAGE, MemoryStats, REMAINING, statIndex } from './stats';

const T0 = Date.parse('2025-03-03T08:00:00Z');
const keys = laneKeys({
  carrier: 'dhl',
  originCountry: 'DE',
  destinationCountry: 'FR',
  postcode: '75008',
});

/** `n` deliveries each taking `ms` from entering `stage`, learnt at `level`. */
function learn(stats: MemoryStats, level: number, stage: number, ms: number, n: number): void {
  stats.add(level, keys[level]!, [statIndex(stage, REMAINING, bucketOf(ms))], [n]);
}

const inTransitSince = (hours: number): ParcelTimeline => ({
  createdAt: new Date(T0 - 48 * HOUR_MS),
  status: 'in_transit',
  checkpoints: [{ at: new Date(T0 - hours * HOUR_MS), status: 'in_transit' }],
});

describe('stageWindow: the back-off chain', () => {
  it('uses the most specific level with enough deliveries', () => {
    const stats = new MemoryStats();
    learn(stats, 0, IN_TRANSIT, 1 * DAY_MS, 49); // postcode level: one short of 50
    learn(stats, 1, IN_TRANSIT, 2 * DAY_MS, 25); // the lane: enough
    learn(stats, 3, IN_TRANSIT, 5 * DAY_MS, 500);
    const w = stageWindow(stats, keys, IN_TRANSIT, 0);
    expect(w.level).toBe(1);
    expect(w.deliveries).toBe(25);
    expect(w.remaining[1]).toBeGreaterThanOrEqual(2 * DAY_MS);
    expect(w.remaining[1]).toBeLessThan(2 * DAY_MS + 12 * HOUR_MS);
  });

  it('backs off when too few deliveries took longer than the time already spent', () => {
    const stats = new MemoryStats();
    learn(stats, 1, IN_TRANSIT, 1 * DAY_MS, 100);
    learn(stats, 1, IN_TRANSIT, 6 * DAY_MS, 9);
    learn(stats, 2, IN_TRANSIT, 6 * DAY_MS, 40);
    expect(stageWindow(stats, keys, IN_TRANSIT, 0).level).toBe(1);
    // Three days in: only 9 of the lane's deliveries took longer; the carrier+destination has 40.
    const late = stageWindow(stats, keys, IN_TRANSIT, 3 * DAY_MS);
    expect(late.level).toBe(2);
    expect(late.remaining[1]).toBeGreaterThan(2.5 * DAY_MS);
  });

  it('falls back to the default, which always has a window', () => {
    const w = stageWindow(new MemoryStats(), keys, OUT_FOR_DELIVERY, 0);
    expect(w.level).toBe(4);
    expect(w.deliveries).toBe(0);
    expect(w.remaining[0]).toBeLessThan(w.remaining[1]);
    expect(w.remaining[1]).toBeLessThan(w.remaining[2]);
    const years = stageWindow(new MemoryStats(), keys, OUT_FOR_DELIVERY, 3650 * DAY_MS);
    expect(years.remaining[2]).toBeGreaterThan(0);
  });

  it('conditions on the time spent: the remaining window shrinks as the parcel ages, never below zero', () => {
    const stats = new MemoryStats();
    for (let d = 1; d <= 5; d++) learn(stats, 1, IN_TRANSIT, d * DAY_MS, 20);
    const fresh = stageWindow(stats, keys, IN_TRANSIT, 0).remaining;
    const aged = stageWindow(stats, keys, IN_TRANSIT, 3.5 * DAY_MS).remaining;
    expect(aged[2]).toBeLessThan(fresh[2]);
    // Given 3.5 days in, only the 4- and 5-day deliveries remain: 0.5 to 2 days left.
    expect(aged[0]).toBeGreaterThanOrEqual(0.5 * DAY_MS);
    expect(aged[2]).toBeLessThanOrEqual(2 * DAY_MS);
  });
});

describe('predictDelivery', () => {
  const now = new Date(T0);

  it('gives dates from now, a basis and a confidence', () => {
    const stats = new MemoryStats();
    learn(stats, 1, IN_TRANSIT, 2 * DAY_MS, 30);
    const p = predictDelivery({ journey: journeyOf(inTransitSince(0)), keys, now }, stats)!;
    expect(p.basis).toEqual({ kind: 'history', level: 'lane', deliveries: 30 });
    expect(p.earliest.getTime()).toBeGreaterThanOrEqual(T0 + 2 * DAY_MS);
    expect(p.latest.getTime()).toBeLessThanOrEqual(T0 + 2 * DAY_MS + 2 * HOUR_MS + 60_000);
    expect(p.confidence).toBe(0.8);
  });

  it('says when the carrier gave a date, and expectedDeliveryDate keeps it', () => {
    const carrierDate = new Date(T0 + 3 * DAY_MS);
    const p = predictDelivery(
      { journey: journeyOf(inTransitSince(5)), keys, carrierDate, now },
      new MemoryStats(),
    )!;
    expect(p.basis.kind).toBe('carrier');
    expect(p.basis.level).toBe('default');
    expect(expectedDeliveryDate(p, carrierDate)).toBe(carrierDate);
    expect(expectedDeliveryDate(p, null)).toBe(p.likely);
    expect(expectedDeliveryDate(null, null)).toBeNull();
  });

  it('predicts nothing for a final status', () => {
    const delivered: ParcelTimeline = {
      createdAt: new Date(T0 - DAY_MS),
      status: 'delivered',
      checkpoints: [{ at: new Date(T0 - HOUR_MS), status: 'delivered' }],
    };
    expect(
      predictDelivery({ journey: journeyOf(delivered), keys, now }, new MemoryStats()),
    ).toBeNull();
  });

  it('never lets a later main-line stage end later than an earlier one would', () => {
    const stats = new MemoryStats();
    // Thin, odd data for "out for delivery": alone it would say 3 days.
    learn(stats, 1, OUT_FOR_DELIVERY, 3 * DAY_MS, 30);
    learn(stats, 1, IN_TRANSIT, 1 * DAY_MS, 30);
    learn(stats, 1, LABEL, 2 * DAY_MS, 30);
    const out: ParcelTimeline = {
      createdAt: new Date(T0 - 10 * HOUR_MS),
      status: 'delivery_in_progress',
      checkpoints: [
        { at: new Date(T0 - 8 * HOUR_MS), status: 'in_transit' },
        { at: new Date(T0), status: 'delivery_in_progress' },
      ],
    };
    const p = predictDelivery({ journey: journeyOf(out), keys, now }, stats)!;
    const transitAlone = stageWindow(stats, keys, IN_TRANSIT, 8 * HOUR_MS).remaining;
    expect(p.latest.getTime()).toBeLessThanOrEqual(T0 + transitAlone[2] + 60_000);
    // The basis stays the current stage's.
    expect(p.basis.deliveries).toBe(30);
  });
});

describe('confidence', () => {
  it('is the coverage of the level shrunk toward the prior by 20 deliveries', () => {
    const stats = new MemoryStats();
    expect(confidenceOf(stats, keys, 1, IN_TRANSIT)).toBe(0.8);
    expect(confidenceOf(stats, keys, 4, IN_TRANSIT)).toBe(0.5);
    // 30 windows, 15 held: (15 + 16) / 50.
    stats.add(1, keys[1]!, [statIndex(IN_TRANSIT, COVERAGE, 1)], [15]);
    stats.add(1, keys[1]!, [statIndex(IN_TRANSIT, COVERAGE, 0)], [15]);
    expect(confidenceOf(stats, keys, 1, IN_TRANSIT)).toBe(0.62);
    // 1000 windows, 900 held: close to 0.9.
    stats.add(1, keys[1]!, [statIndex(IN_TRANSIT, COVERAGE, 1)], [885]);
    stats.add(1, keys[1]!, [statIndex(IN_TRANSIT, COVERAGE, 0)], [85]);
    expect(confidenceOf(stats, keys, 1, IN_TRANSIT)).toBe(0.9);
  });
});

describe('windows', () => {
  const w = (e: number, l: number, t: number) => ({
    earliest: new Date(T0 + e * HOUR_MS),
    likely: new Date(T0 + l * HOUR_MS),
    latest: new Date(T0 + t * HOUR_MS),
  });

  it('hold a delivery between their bounds, inclusive', () => {
    expect(windowHolds(w(1, 2, 3), T0 + HOUR_MS)).toBe(true);
    expect(windowHolds(w(1, 2, 3), T0 + 3 * HOUR_MS)).toBe(true);
    expect(windowHolds(w(1, 2, 3), T0 + 3 * HOUR_MS + 1)).toBe(false);
  });

  it('have moved when a bound moved by a day or more', () => {
    expect(windowMoved(w(10, 20, 30), w(10, 20, 53))).toBe(false);
    expect(windowMoved(w(10, 20, 30), w(10, 20, 54))).toBe(true);
    expect(windowMoved(w(10, 20, 30), w(-14, 20, 30))).toBe(true);
    expect(windowMoved(null, w(1, 2, 3))).toBe(false);
    expect(windowMoved(w(1, 2, 3), null)).toBe(false);
  });
});
