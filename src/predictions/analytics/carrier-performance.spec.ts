import fc from 'fast-check';
import { bucketOf, DAY_MS, HOUR_MS } from '../model/buckets';
import {
  blockStart,
  carrierPerformance,
  dayNumber,
  dayString,
  LATENCY_BASE,
  PERF,
  rangeBlocks,
  SPANS,
  TRANSIT_BASE,
} from './carrier-performance';

describe('date range blocks', () => {
  it('cover exactly the days of the range with aligned blocks, and few of them', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 18_000, max: 22_000 }),
        fc.integer({ min: 0, max: 1500 }),
        (from, length) => {
          const to = from + length;
          const blocks = rangeBlocks(from, to);
          let cur = from;
          for (const b of blocks) {
            expect(SPANS).toContain(b.span);
            expect(b.day).toBe(cur);
            expect(blockStart(b.day, b.span)).toBe(b.day);
            cur += b.span;
          }
          expect(cur).toBe(to + 1);
          // At most 3 blocks per span on each side of the longest.
          expect(blocks.length).toBeLessThanOrEqual(6 * SPANS.length);
        },
      ),
    );
  });

  it('read a quarter in about a dozen blocks', () => {
    const blocks = rangeBlocks(dayNumber('2025-01-01'), dayNumber('2025-03-31'));
    expect(blocks.length).toBeLessThanOrEqual(14);
    expect(dayString(dayNumber('2025-02-28'))).toBe('2025-02-28');
  });
});

describe('carrier performance metrics', () => {
  const shipment = (idx: number[]) => ({
    carrier: 'dhl',
    destination: 'FR',
    idx,
    n: idx.map(() => 1),
  });
  const delivered = (transitDays: number, extra: number[] = []) =>
    shipment([
      PERF.shipments,
      PERF.shipped,
      PERF.delivered,
      TRANSIT_BASE + bucketOf(transitDays * DAY_MS),
      LATENCY_BASE + bucketOf(20 * HOUR_MS),
      ...extra,
    ]);

  it('sum the rows of a group and derive rates and percentiles', () => {
    const rows = [
      delivered(1, [PERF.firstAttempt, PERF.onTimePredictionTrials, PERF.onTimePredictionHits]),
      delivered(2, [PERF.firstAttempt, PERF.onTimeCarrierTrials, PERF.onTimeCarrierHits]),
      delivered(3, [PERF.onTimePredictionTrials, PERF.onTimeCarrierTrials]),
      shipment([PERF.shipments, PERF.shipped, PERF.exception]),
      shipment([PERF.shipments, PERF.shipped, PERF.returned]),
      { carrier: 'ups', destination: 'US', idx: [PERF.shipments], n: [1] },
    ];
    const [dhl, ups] = carrierPerformance(rows, true);
    expect(dhl).toMatchObject({
      carrier: 'dhl',
      destinationCountry: 'FR',
      shipments: 5,
      delivered: 3,
      deliveryRate: 0.6,
      firstAttemptRate: 0.6667,
      exceptionRate: 0.2,
      returnRate: 0.2,
      onTimeRate: { prediction: 0.5, carrier: 0.5 },
    });
    expect(dhl.transitDays.p50).toBeGreaterThanOrEqual(2);
    expect(dhl.transitDays.p50).toBeLessThanOrEqual(2.5);
    expect(dhl.transitDays.p90).toBeGreaterThan(dhl.transitDays.p50!);
    expect(dhl.pickupLatencyDays.p50).toBeCloseTo(20.5 / 24, 1);
    expect(ups).toMatchObject({
      shipments: 1,
      delivered: 0,
      deliveryRate: 0,
      firstAttemptRate: null,
      transitDays: { p50: null, p90: null },
      onTimeRate: { prediction: null, carrier: null },
    });
  });

  it('add delta rows, negative ones included, and drop groups that sum to nothing', () => {
    const rows = [
      delivered(2),
      { carrier: 'dhl', destination: 'FR', idx: [PERF.shipments, PERF.delivered], n: [2, 1] },
      { carrier: 'dhl', destination: 'FR', idx: [PERF.shipments, PERF.delivered], n: [-1, -1] },
      { carrier: 'gls', destination: 'DE', idx: [PERF.shipments], n: [1] },
      { carrier: 'gls', destination: 'DE', idx: [PERF.shipments], n: [-1] },
    ];
    const groups = carrierPerformance(rows, false);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      carrier: 'dhl',
      destinationCountry: null,
      shipments: 2,
      delivered: 1,
    });
  });
});
