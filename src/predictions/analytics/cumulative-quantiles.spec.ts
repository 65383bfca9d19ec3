import fc from 'fast-check';
import { BUCKETS, conditionalQuantiles, OVERFLOW } from '../model/buckets';
import {
  COARSE_PROBES,
  cumulativeOf,
  quantileOfCumulative,
  SEGMENT,
  segmentStart,
} from './cumulative-quantiles';

/** Sparse histograms: most buckets empty, a few heavy, the open last one sometimes used. */
const histogram = fc
  .array(
    fc.record({
      bucket: fc.oneof(fc.integer({ min: 0, max: OVERFLOW }), fc.constantFrom(0, 1, OVERFLOW)),
      n: fc.integer({ min: 1, max: 50_000 }),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((entries) => {
    const counts = new Array<number>(BUCKETS).fill(0);
    for (const e of entries) counts[e.bucket] += e.n;
    return counts;
  });
const p = fc.constantFrom(0.5, 0.9, 0.1, 0.25, 0.75, 0.95, 0.99);

function reference(counts: number[], q: number): number {
  const total = counts.reduce((a, b) => a + b, 0);
  return conditionalQuantiles({ counts, offset: 0, total }, 0, [q])![0];
}

describe('quantiles of cumulative counts', () => {
  it('equal the bucket walk exactly, over all buckets', () => {
    fc.assert(
      fc.property(histogram, p, (counts, q) => {
        const cum = cumulativeOf(counts);
        expect(quantileOfCumulative((b) => cum[b], cum[OVERFLOW], q)).toBe(reference(counts, q));
      }),
      { numRuns: 500 },
    );
  });

  it('equal it in two steps: the coarse probes pick a segment, the search stays inside it', () => {
    fc.assert(
      fc.property(histogram, p, (counts, q) => {
        const cum = cumulativeOf(counts);
        const total = cum[OVERFLOW];
        const lo = segmentStart(
          COARSE_PROBES.map((b) => cum[b]),
          q * total,
        );
        const hi = Math.min(lo + SEGMENT - 1, OVERFLOW);
        // Only the segment's buckets and the one before it are read.
        const read = new Set<number>();
        const at = (b: number) => {
          read.add(b);
          return cum[b];
        };
        expect(quantileOfCumulative(at, total, q, lo, hi)).toBe(reference(counts, q));
        for (const b of read) {
          expect(b).toBeGreaterThanOrEqual(lo - 1);
          expect(b).toBeLessThanOrEqual(hi);
        }
        expect(read.size).toBeLessThanOrEqual(SEGMENT + 1);
      }),
      { numRuns: 500 },
    );
  });

  it('probe few buckets: coarse ends of segments cover the histogram', () => {
    expect(COARSE_PROBES[0]).toBe(SEGMENT - 1);
    expect(COARSE_PROBES.at(-1)!).toBeLessThan(OVERFLOW);
    expect(COARSE_PROBES.at(-1)! + SEGMENT).toBeGreaterThanOrEqual(OVERFLOW);
    expect(COARSE_PROBES.length + SEGMENT + 1).toBeLessThan(BUCKETS / 4);
  });

  it('find the first bucket reaching the share, at the edges too', () => {
    const counts = new Array<number>(BUCKETS).fill(0);
    counts[0] = 1;
    counts[OVERFLOW] = 1;
    const cum = cumulativeOf(counts);
    // Half the mass is bucket 0's: its upper edge (1 h).
    expect(quantileOfCumulative((b) => cum[b], 2, 0.5)).toBe(3_600_000);
    expect(quantileOfCumulative((b) => cum[b], 2, 0.9)).toBe(reference(counts, 0.9));
    expect(segmentStart([0, 0, 1], 0.5)).toBe(2 * SEGMENT);
    expect(segmentStart([1, 1], 0.5)).toBe(0);
  });

  it('refuse a segment that does not hold the quantile, or an empty histogram', () => {
    const cum = cumulativeOf([...new Array<number>(BUCKETS - 1).fill(0), 4]);
    expect(() => quantileOfCumulative((b) => cum[b], 4, 0.5, 0, SEGMENT - 1)).toThrow(RangeError);
    expect(() => quantileOfCumulative(() => 0, 0, 0.5)).toThrow(RangeError);
  });
});
