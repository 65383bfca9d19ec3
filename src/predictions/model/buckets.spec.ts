import {
  BUCKETS,
  bucketOf,
  conditionalQuantiles,
  DAY_MS,
  HOUR_MS,
  LAST_EDGE,
  LOWER,
  massAbove,
  OVERFLOW,
  TAIL_MEAN_MS,
  upperEdge,
} from './buckets';

function histogram(entries: Record<number, number>) {
  const counts = new Float64Array(BUCKETS);
  for (const [b, n] of Object.entries(entries)) counts[Number(b)] = n;
  return { counts, offset: 0, total: counts.reduce((a, b) => a + b, 0) };
}

describe('duration buckets', () => {
  it('are hourly for the first day, then never wider than a tenth of where they start', () => {
    expect(BUCKETS).toBe(105);
    expect(LOWER[0]).toBe(0);
    expect(LAST_EDGE).toBe(60 * DAY_MS);
    for (let b = 0; b < OVERFLOW; b++) {
      const width = upperEdge(b) - LOWER[b];
      expect(width).toBeGreaterThan(0);
      if (LOWER[b] < DAY_MS) expect(width).toBe(HOUR_MS);
      else expect(width / LOWER[b]).toBeLessThanOrEqual(0.1);
    }
    expect(upperEdge(OVERFLOW)).toBe(Infinity);
  });

  it('put every duration in the bucket whose edges hold it', () => {
    expect(bucketOf(-5)).toBe(0);
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(HOUR_MS - 1)).toBe(0);
    expect(bucketOf(HOUR_MS)).toBe(1);
    expect(bucketOf(DAY_MS)).toBe(24);
    expect(bucketOf(DAY_MS + 2 * HOUR_MS)).toBe(25);
    expect(bucketOf(LAST_EDGE - 1)).toBe(OVERFLOW - 1);
    expect(bucketOf(LAST_EDGE)).toBe(OVERFLOW);
    expect(bucketOf(400 * DAY_MS)).toBe(OVERFLOW);
    for (let ms = 0; ms < 70 * DAY_MS; ms += 37 * 60_000 + 13) {
      const b = bucketOf(ms);
      expect(LOWER[b]).toBeLessThanOrEqual(ms);
      expect(ms).toBeLessThan(upperEdge(b));
    }
  });
});

describe('conditional quantiles', () => {
  it('interpolate uniformly inside a bucket', () => {
    const h = histogram({ 10: 100 }); // 10 h .. 11 h
    expect(conditionalQuantiles(h, 0, [0.1, 0.5, 0.9])).toEqual([
      10.1 * HOUR_MS,
      10.5 * HOUR_MS,
      10.9 * HOUR_MS,
    ]);
  });

  it('walk across buckets by mass', () => {
    const h = histogram({ 2: 50, 5: 50 });
    const [q25, q75] = conditionalQuantiles(h, 0, [0.25, 0.75])!;
    expect(q25).toBe(2.5 * HOUR_MS);
    expect(q75).toBe(5.5 * HOUR_MS);
  });

  it('condition on the time already spent: only the mass above it counts', () => {
    const h = histogram({ 2: 50, 5: 50 });
    expect(massAbove(h, 0)).toBe(100);
    expect(massAbove(h, 2.5 * HOUR_MS)).toBeCloseTo(75);
    expect(massAbove(h, 4 * HOUR_MS)).toBe(50);
    // Given 4 hours spent, only the second bucket remains.
    expect(conditionalQuantiles(h, 4 * HOUR_MS, [0.5])).toEqual([5.5 * HOUR_MS]);
    // Inside a bucket: its mass above the elapsed time, uniformly.
    expect(conditionalQuantiles(histogram({ 5: 100 }), 5.5 * HOUR_MS, [0.5])).toEqual([
      5.75 * HOUR_MS,
    ]);
  });

  it('answer null when nothing lies above the elapsed time', () => {
    expect(conditionalQuantiles(histogram({ 2: 10 }), 3 * HOUR_MS, [0.5])).toBeNull();
    expect(conditionalQuantiles(histogram({}), 0, [0.5])).toBeNull();
  });

  it('take the open last bucket as an exponential tail, memoryless', () => {
    const h = histogram({ [OVERFLOW]: 10 });
    const [median] = conditionalQuantiles(h, 0, [0.5])!;
    expect(median).toBeCloseTo(LAST_EDGE + TAIL_MEAN_MS * Math.LN2, -3);
    const late = 100 * DAY_MS;
    const [lateMedian] = conditionalQuantiles(h, late, [0.5])!;
    expect(lateMedian - late).toBeCloseTo(TAIL_MEAN_MS * Math.LN2, -3);
  });

  it('are ordered as their probabilities and never below the elapsed time', () => {
    const h = histogram({ 0: 3, 7: 10, 30: 4, 60: 8, 90: 2, [OVERFLOW]: 1 });
    for (const elapsed of [0, 3 * HOUR_MS, 2 * DAY_MS, 20 * DAY_MS, 70 * DAY_MS]) {
      const q = conditionalQuantiles(h, elapsed, [0.05, 0.1, 0.5, 0.9, 0.99])!;
      for (let i = 1; i < q.length; i++) expect(q[i]).toBeGreaterThanOrEqual(q[i - 1]);
      expect(q[0]).toBeGreaterThanOrEqual(elapsed);
    }
  });
});
