/**
 * The fixed buckets every duration histogram of this module uses (time to delivery, longest
 * silence, transit time, pickup latency), so that a histogram is a vector of counts that SQL
 * can keep as deltas and sum.
 *
 * Widths grow with the duration, so that a bucket is never wider than about a tenth of the
 * durations it holds (1 h below a day; 8 % at 1 day, 3 days and 7 days; 7 % at 14 days; 10 %
 * at 30 days). Within a bucket the density is taken as uniform, so a quantile is off by at
 * most one bucket width and typically by far less: for transit times whose natural spread is
 * 30-60 % of their median, the bucket error is negligible beside it (README, "Buckets").
 * Durations of 60 days and more share the open last bucket, whose tail is taken as
 * exponential with mean TAIL_MEAN_MS (memoryless: "delivered about two weeks after any given
 * day" once a parcel is that late).
 */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** [until, width]: buckets of `width` from the previous `until` up to this one. */
const SEGMENTS: ReadonlyArray<readonly [number, number]> = [
  [1 * DAY_MS, 1 * HOUR_MS],
  [3 * DAY_MS, 2 * HOUR_MS],
  [7 * DAY_MS, 6 * HOUR_MS],
  [14 * DAY_MS, 12 * HOUR_MS],
  [30 * DAY_MS, 1 * DAY_MS],
  [60 * DAY_MS, 3 * DAY_MS],
];

/** Mean of the open last bucket's exponential tail. */
export const TAIL_MEAN_MS = 14 * DAY_MS;

function buildEdges(): number[] {
  const edges = [0];
  let from = 0;
  for (const [until, width] of SEGMENTS) {
    for (let at = from + width; at <= until; at += width) edges.push(at);
    from = until;
  }
  return edges;
}

/** Lower edge of every bucket; the last bucket is [LOWER[last], ∞). */
export const LOWER: readonly number[] = buildEdges();
/** Number of buckets (104 finite ones and the open last one). */
export const BUCKETS = LOWER.length;
export const OVERFLOW = BUCKETS - 1;
/** Where the open last bucket starts (60 days). */
export const LAST_EDGE = LOWER[OVERFLOW];

export function upperEdge(bucket: number): number {
  return bucket >= OVERFLOW ? Infinity : LOWER[bucket + 1];
}

/** The bucket of a duration; negative durations (clock skew between carriers) count as 0. */
export function bucketOf(ms: number): number {
  if (!(ms > 0)) return 0;
  if (ms >= LAST_EDGE) return OVERFLOW;
  let lo = 0;
  let hi = OVERFLOW - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (LOWER[mid] <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * A histogram inside a larger count vector: `counts[offset + b]` is bucket b, `total` their
 * sum. A view, so that reading a stage's histogram out of a level's vector allocates nothing.
 */
export interface HistogramView {
  readonly counts: ArrayLike<number>;
  readonly offset: number;
  readonly total: number;
}

/** Mass of the histogram above `elapsed` (uniform inside a bucket, exponential in the tail). */
export function massAbove(h: HistogramView, elapsed: number): number {
  if (h.total <= 0) return 0;
  if (!(elapsed > 0)) return h.total;
  const j = bucketOf(elapsed);
  let above = partialAbove(h, j, elapsed);
  for (let b = j + 1; b < BUCKETS; b++) above += h.counts[h.offset + b];
  return above;
}

/** Mass of bucket j above `elapsed` (which lies inside it). */
function partialAbove(h: HistogramView, j: number, elapsed: number): number {
  const c = h.counts[h.offset + j];
  if (c <= 0) return 0;
  if (j === OVERFLOW) return c * Math.exp(-(elapsed - LAST_EDGE) / TAIL_MEAN_MS);
  const lo = LOWER[j];
  const hi = LOWER[j + 1];
  return (c * (hi - Math.max(elapsed, lo))) / (hi - lo);
}

/**
 * Quantiles of the duration T given T > elapsed: for each p of `ps` (ascending, in (0, 1)) the
 * d with P(T ≤ d | T > elapsed) = p, so d ≥ elapsed. null when no mass lies above `elapsed`.
 * One walk over the buckets for all `ps`.
 */
export function conditionalQuantiles(
  h: HistogramView,
  elapsed: number,
  ps: readonly number[],
): number[] | null {
  const e = elapsed > 0 ? elapsed : 0;
  const above = massAbove(h, e);
  if (!(above > 0)) return null;
  const out: number[] = [];
  let k = 0;
  let acc = 0;
  const j = bucketOf(e);
  for (let b = j; b < BUCKETS && k < ps.length; b++) {
    const from = b === j ? e : LOWER[b];
    const mass = b === j ? partialAbove(h, b, e) : h.counts[h.offset + b];
    if (mass <= 0) continue;
    while (k < ps.length && acc + mass >= ps[k] * above) {
      const need = ps[k] * above - acc;
      out.push(from + inBucket(b, from, mass, need));
      k++;
    }
    acc += mass;
  }
  // Rounding left a p unreached: it sits at the top of the mass.
  while (k < ps.length) {
    out.push(out.length > 0 ? out[out.length - 1] : e);
    k++;
  }
  return out;
}

/** How far past `from` inside bucket b the mass `need` (of `mass` above `from`) is reached. */
export function inBucket(b: number, from: number, mass: number, need: number): number {
  if (need <= 0) return 0;
  if (b === OVERFLOW) {
    const share = Math.min(need / mass, 1 - 1e-9);
    return -TAIL_MEAN_MS * Math.log(1 - share);
  }
  return ((upperEdge(b) - from) * need) / mass;
}
