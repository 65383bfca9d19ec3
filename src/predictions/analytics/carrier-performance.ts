import { BUCKETS, conditionalQuantiles, DAY_MS } from '../model/buckets';

/**
 * Carrier analytics from aggregates: per shipment one sparse count vector (which of these it
 * counts in), summed per workspace, creation day, carrier and destination country, and read
 * back for a date range as sums of a few pre-summed blocks (see `rangeBlocks`).
 *
 * Vector indexes: counters below 128, then two histograms in the common buckets.
 */
export const PERF = {
  shipments: 0,
  shipped: 1,
  delivered: 2,
  /** Delivered with no failed attempt before. */
  firstAttempt: 3,
  /** Ever reported an exception (error status or checkpoint). */
  exception: 4,
  returned: 5,
  /** Delivered, with a window shown after shipping (the first such window's `latest`). */
  onTimePredictionTrials: 6,
  onTimePredictionHits: 7,
  /** Delivered, with a date the carrier gave (the first one). */
  onTimeCarrierTrials: 8,
  onTimeCarrierHits: 9,
} as const;
/** Histogram of shipped → delivered. */
export const TRANSIT_BASE = 128;
/** Histogram of created → first scan (the first checkpoint that proves a pickup). */
export const LATENCY_BASE = 256;
export const PERF_VECTOR_SIZE = 384;

/** The destination value of the rows that sum every destination of a carrier. */
export const ALL_DESTINATIONS = '*';

/**
 * Block lengths in days. Every contribution is added to the block of its day at each length
 * (block starts aligned on multiples of the length since 1970-01-01), so a date range reads at
 * most a few blocks per length whatever the volume: about a dozen for a quarter, under 40 for
 * years. Base 4 rather than 2 halves the writes for ~1.5 times the blocks read.
 */
export const SPANS: readonly number[] = [1, 4, 16, 64, 256, 1024];

/** Days since 1970-01-01 of a UTC day 'YYYY-MM-DD' or an instant. */
export function dayNumber(day: string | Date): number {
  const ms = typeof day === 'string' ? Date.parse(`${day}T00:00:00Z`) : day.getTime();
  return Math.floor(ms / DAY_MS);
}

export function dayString(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/** Start (day number) of the block of length `span` holding `day`. */
export function blockStart(day: number, span: number): number {
  return Math.floor(day / span) * span;
}

/**
 * The fewest aligned blocks covering the days from..to (inclusive day numbers), greedily: at
 * each step the longest block that starts there and ends by `to`.
 */
export function rangeBlocks(from: number, to: number): Array<{ span: number; day: number }> {
  const out: Array<{ span: number; day: number }> = [];
  let cur = from;
  while (cur <= to) {
    for (let i = SPANS.length - 1; i >= 0; i--) {
      const span = SPANS[i];
      if (blockStart(cur, span) === cur && cur + span - 1 <= to) {
        out.push({ span, day: cur });
        cur += span;
        break;
      }
    }
  }
  return out;
}

/** One aggregate row as read: a group and sparse counts (possibly one delta among several). */
export interface PerformanceRow {
  carrier: string;
  destination: string;
  idx: readonly number[];
  n: readonly number[];
}

export interface CarrierPerformance {
  carrier: string;
  /** The destination country (ISO 2, '-' unknown); null when not grouped by destination. */
  destinationCountry: string | null;
  shipments: number;
  delivered: number;
  /** delivered / shipments. */
  deliveryRate: number | null;
  /** Shipped → delivered, in days. */
  transitDays: { p50: number | null; p90: number | null };
  /** Created → first scan, in days. */
  pickupLatencyDays: { p50: number | null; p90: number | null };
  /** Delivered without a failed attempt / delivered. */
  firstAttemptRate: number | null;
  exceptionRate: number | null;
  returnRate: number | null;
  /** Delivered by the window's `latest` / delivered with a window; by the carrier's date likewise. */
  onTimeRate: { prediction: number | null; carrier: number | null };
}

/**
 * The metrics of each group (carrier, or carrier and destination) from sparse count rows, summed
 * per group first; sorted by shipments, then carrier. The definition over plain counts: the
 * store's read works on folded cumulative rows instead, and the aggregates e2e checks it against
 * this over the recomputed contributions.
 */
export function carrierPerformance(
  rows: readonly PerformanceRow[],
  byDestination: boolean,
): CarrierPerformance[] {
  const groups = new Map<string, { carrier: string; destination: string; v: Float64Array }>();
  for (const r of rows) {
    const key = `${r.carrier}\u0000${r.destination}`;
    let g = groups.get(key);
    if (!g)
      groups.set(
        key,
        (g = {
          carrier: r.carrier,
          destination: r.destination,
          v: new Float64Array(PERF_VECTOR_SIZE),
        }),
      );
    for (let i = 0; i < r.idx.length; i++)
      if (r.idx[i] >= 0 && r.idx[i] < PERF_VECTOR_SIZE) g.v[r.idx[i]] += Number(r.n[i]);
  }
  return sortedGroups(
    [...groups.values()].map((g) =>
      metricsOf(g.carrier, byDestination ? g.destination : null, g.v),
    ),
  );
}

/** Groups with shipments, by shipments, then carrier and destination. */
export function sortedGroups(groups: readonly CarrierPerformance[]): CarrierPerformance[] {
  return groups
    .filter((m) => m.shipments > 0)
    .sort(
      (a, b) =>
        b.shipments - a.shipments ||
        a.carrier.localeCompare(b.carrier) ||
        (a.destinationCountry ?? '').localeCompare(b.destinationCountry ?? ''),
    );
}

/** The p50 and p90 this module reports, and their order in `QuantilesMs`. */
export const REPORTED_QUANTILES: readonly [number, number] = [0.5, 0.9];
/** p50 and p90 in ms, or null for a histogram without counts. */
export type QuantilesMs = readonly [number, number] | null;

/** A group's summed counters (PERF indexes) and the quantiles of its two histograms. */
export interface PerformanceSums {
  carrier: string;
  destinationCountry: string | null;
  counter: (index: number) => number;
  transit: QuantilesMs;
  latency: QuantilesMs;
}

export function metricsOf(
  carrier: string,
  destinationCountry: string | null,
  v: Float64Array,
): CarrierPerformance {
  return metricsOfSums({
    carrier,
    destinationCountry,
    counter: (i) => v[i],
    transit: quantilesOf(v, TRANSIT_BASE),
    latency: quantilesOf(v, LATENCY_BASE),
  });
}

export function metricsOfSums(s: PerformanceSums): CarrierPerformance {
  const shipments = s.counter(PERF.shipments);
  const delivered = s.counter(PERF.delivered);
  return {
    carrier: s.carrier,
    destinationCountry: s.destinationCountry,
    shipments,
    delivered,
    deliveryRate: rate(delivered, shipments),
    transitDays: inDays(s.transit),
    pickupLatencyDays: inDays(s.latency),
    firstAttemptRate: rate(s.counter(PERF.firstAttempt), delivered),
    exceptionRate: rate(s.counter(PERF.exception), shipments),
    returnRate: rate(s.counter(PERF.returned), shipments),
    onTimeRate: {
      prediction: rate(
        s.counter(PERF.onTimePredictionHits),
        s.counter(PERF.onTimePredictionTrials),
      ),
      carrier: rate(s.counter(PERF.onTimeCarrierHits), s.counter(PERF.onTimeCarrierTrials)),
    },
  };
}

function rate(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null;
}

function quantilesOf(v: Float64Array, base: number): QuantilesMs {
  let total = 0;
  for (let b = 0; b < BUCKETS; b++) total += v[base + b];
  const q =
    total > 0
      ? conditionalQuantiles({ counts: v, offset: base, total }, 0, REPORTED_QUANTILES)
      : null;
  return q ? [q[0], q[1]] : null;
}

function inDays(q: QuantilesMs): { p50: number | null; p90: number | null } {
  const days = (ms: number) => Math.round((ms / DAY_MS) * 100) / 100;
  return q ? { p50: days(q[0]), p90: days(q[1]) } : { p50: null, p90: null };
}
