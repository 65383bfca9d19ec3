import { BUCKETS, inBucket, LOWER, OVERFLOW } from '../model/buckets';

/**
 * Quantiles of a histogram kept as cumulative counts, found by probing a few buckets instead
 * of walking them all: folded carrier performance rows keep their transit and pickup latency
 * histograms cumulative, so the database sums a range's blocks at the probed buckets only and
 * a read touches the same number of values whatever the workspace's volume.
 *
 * The definition is `conditionalQuantiles` at elapsed 0 (uniform inside a bucket, exponential
 * in the open last one); the spec checks both agree exactly.
 */

/** Count of the buckets 0..b (0 below bucket 0). Non-decreasing, `at(OVERFLOW)` is the total. */
export type Cumulative = (bucket: number) => number;

/** Width of a segment of the two-step search: the coarse probes end each segment. */
export const SEGMENT = 8;
/** The buckets probed first: the last of each segment but the final one (whose end is the total). */
export const COARSE_PROBES: readonly number[] = Array.from(
  { length: Math.ceil(BUCKETS / SEGMENT) - 1 },
  (_, k) => (k + 1) * SEGMENT - 1,
);

/** The first bucket of the segment holding the quantile: a coarse probe below target ends one. */
export function segmentStart(coarse: readonly number[], target: number): number {
  let k = 0;
  while (k < coarse.length && coarse[k] < target) k++;
  return k * SEGMENT;
}

/**
 * The duration (ms) below which a share `p` of the histogram's `total` lies, searching the
 * buckets lo..hi; the caller knows that `at(lo - 1) < p * total <= at(hi)` (the segment of
 * `segmentStart`), and a histogram that breaks it (a decreasing sum) is an error, not a guess.
 */
export function quantileOfCumulative(
  at: Cumulative,
  total: number,
  p: number,
  lo = 0,
  hi = OVERFLOW,
): number {
  const target = p * total;
  if (!(total > 0 && lo >= 0 && hi <= OVERFLOW && lo <= hi))
    throw new RangeError(`no quantile of ${total} in buckets ${lo}..${hi}`);
  if (!(below(at, lo) < target && at(hi) >= target))
    throw new RangeError(`quantile ${p} of ${total} is not in buckets ${lo}..${hi}`);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at(mid) >= target) hi = mid;
    else lo = mid + 1;
  }
  const acc = below(at, lo);
  return LOWER[lo] + inBucket(lo, LOWER[lo], at(lo) - acc, target - acc);
}

function below(at: Cumulative, bucket: number): number {
  return bucket > 0 ? at(bucket - 1) : 0;
}

/** Dense cumulative counts (BUCKETS entries) of a histogram at `counts[offset..]`. */
export function cumulativeOf(counts: ArrayLike<number>, offset = 0): number[] {
  const out: number[] = [];
  let acc = 0;
  for (let b = 0; b < BUCKETS; b++) out.push((acc += counts[offset + b]));
  return out;
}
