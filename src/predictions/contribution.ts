import {
  ALL_DESTINATIONS,
  blockStart,
  dayNumber,
  dayString,
  LATENCY_BASE,
  PERF,
  SPANS,
  TRANSIT_BASE,
} from './analytics/carrier-performance';
import { bucketOf } from './model/buckets';
import {
  DEFAULT_LEVEL,
  LEVELS,
  laneKeys,
  normalizeCarrier,
  normalizeCountry,
  type LaneFacts,
  type LaneKeys,
} from './model/lanes';
import { predictDelivery, windowHolds, type DeliveryWindow } from './model/predict';
import {
  journeyOf,
  stageChanges,
  STAGE_COUNT,
  timelineAt,
  type Journey,
  type ParcelTimeline,
} from './model/stages';
import {
  COVERAGE,
  MemoryStats,
  REMAINING,
  SILENCE,
  statIndex,
  type StatsLookup,
} from './model/stats';

/**
 * What one shipment adds to the aggregates, as a function of its facts: the shipment's
 * *contribution*. The store keeps each shipment's current contribution beside the aggregates
 * and applies the difference when it changes (and its negation when the shipment is deleted),
 * so the aggregates are always the sum of the contributions of the shipments that exist: exact,
 * with no scan. See README "Aggregates".
 */

/** Everything the rules read about one shipment (from its row and its checkpoints). */
export interface ShipmentFacts extends ParcelTimeline, LaneFacts {
  /** The carrier's own expected delivery date, as it reports it now. */
  readonly carrierDate?: Date | null;
}

/**
 * What was promised, kept from the first time it was known (not derivable from the checkpoints
 * later): the carrier's first date, and the `latest` of the first window shown once the parcel
 * had shipped. On-time rates are measured against these.
 */
export interface Promises {
  carrierDate: Date | null;
  windowLatest: Date | null;
}

export interface Contribution {
  /** The shipment's key per back-off level (lanes.ts); null where a level does not apply. */
  keys: (string | null)[];
  /** Delivered parcels: per stage entered, its time to delivery and longest silence (stats.ts), added at levels 0..3. */
  statIdx: number[];
  /** Coverage of the windows it was shown, each at the level it came from: level * COVERAGE_STRIDE + index. */
  coverageIdx: number[];
  /** Creation day (UTC, YYYY-MM-DD): the cohort the analytics count it in. */
  day: string;
  carrier: string;
  destination: string;
  /** Its counts in the carrier analytics (carrier-performance.ts). */
  perfIdx: number[];
}

export const COVERAGE_STRIDE = 4096;

/** The promises after a change: the first ones stay; a window counts once the parcel shipped. */
export function nextPromises(
  previous: Promises | null,
  facts: ShipmentFacts,
  journey: Journey,
  window: DeliveryWindow | null,
): Promises {
  const carrierDate = validDate(facts.carrierDate);
  return {
    carrierDate: previous?.carrierDate ?? carrierDate,
    windowLatest:
      previous?.windowLatest ??
      (journey.shippedAt !== null && window ? new Date(window.latest.getTime()) : null),
  };
}

export interface ContributionOptions {
  promises: Promises | null;
  /**
   * The team's stats before this shipment's delivery is added: the windows it was shown are
   * re-predicted from them to count their coverage. Only read for a delivered shipment whose
   * `previous` contribution has no coverage yet.
   */
  stats: StatsLookup;
  /** The shipment's contribution so far: a delivered parcel's coverage is counted once. */
  previous?: Contribution | null;
  /**
   * `journeyOf(facts)` and `laneKeys(facts)` when the caller computed them already (a status
   * change does, for the window): not derived a second time per shipment.
   */
  derived?: { journey: Journey; keys: LaneKeys };
}

/** The contribution of a shipment with these facts (pure). */
export function contributionOf(facts: ShipmentFacts, options: ContributionOptions): Contribution {
  const journey = options.derived?.journey ?? journeyOf(facts);
  const keys = [...(options.derived?.keys ?? laneKeys(facts))];
  const statIdx: number[] = [];
  let coverageIdx: number[] = [];
  const delivered = journey.deliveredAt;
  if (delivered !== null) {
    for (let s = 0; s < STAGE_COUNT; s++) {
      const entered = journey.entered[s];
      if (entered !== null) statIdx.push(statIndex(s, REMAINING, bucketOf(delivered - entered)));
    }
    for (let s = 0; s < STAGE_COUNT; s++) {
      const silence = journey.silences[s];
      if (silence !== null) statIdx.push(statIndex(s, SILENCE, bucketOf(silence)));
    }
    const previous = options.previous;
    coverageIdx =
      previous && previous.statIdx.length > 0 && previous.coverageIdx.length > 0
        ? [...previous.coverageIdx]
        : coverageOf(facts, keys, delivered, options.stats);
  }
  return {
    keys,
    statIdx: statIdx.sort((a, b) => a - b),
    coverageIdx: coverageIdx.sort((a, b) => a - b),
    day: dayString(dayNumber(facts.createdAt)),
    carrier: normalizeCarrier(facts.carrier),
    destination: normalizeCountry(facts.destinationCountry),
    perfIdx: performanceOf(facts, journey, options.promises),
  };
}

/**
 * Whether each window the parcel was shown held its delivery: at its creation and at every
 * change of stage, the window predicted from what was known then (its checkpoints up to that
 * moment) and the stats given, counted at the (level, stage) it came from.
 */
function coverageOf(
  facts: ShipmentFacts,
  keys: (string | null)[],
  deliveredAt: number,
  stats: StatsLookup,
): number[] {
  const out: number[] = [];
  for (const change of stageChanges(facts, deliveredAt)) {
    const journey = journeyOf(timelineAt(facts, change.at));
    if (journey.stage === null) continue;
    const p = predictDelivery({ journey, keys, now: new Date(change.at) }, stats);
    if (!p) continue;
    const level = LEVELS.indexOf(p.basis.level);
    const hit = windowHolds(p, deliveredAt) ? 1 : 0;
    out.push(level * COVERAGE_STRIDE + statIndex(journey.stage, COVERAGE, hit));
  }
  return out;
}

function performanceOf(
  facts: ShipmentFacts,
  journey: Journey,
  promises: Promises | null,
): number[] {
  const out: number[] = [PERF.shipments];
  const { shippedAt, deliveredAt } = journey;
  if (shippedAt !== null) out.push(PERF.shipped);
  if (journey.exception) out.push(PERF.exception);
  if (journey.returned) out.push(PERF.returned);
  if (deliveredAt !== null) {
    out.push(PERF.delivered);
    if (!journey.failedAttempt) out.push(PERF.firstAttempt);
    const latest = promises?.windowLatest;
    if (latest) {
      out.push(PERF.onTimePredictionTrials);
      if (deliveredAt <= latest.getTime()) out.push(PERF.onTimePredictionHits);
    }
    const carrierDate = promises?.carrierDate;
    if (carrierDate) {
      out.push(PERF.onTimeCarrierTrials);
      // The carrier gives a day: on time when delivered that day or before (UTC days).
      if (dayNumber(new Date(deliveredAt)) <= dayNumber(carrierDate))
        out.push(PERF.onTimeCarrierHits);
    }
    if (shippedAt !== null) out.push(TRANSIT_BASE + bucketOf(deliveredAt - shippedAt));
  }
  if (shippedAt !== null) out.push(LATENCY_BASE + bucketOf(shippedAt - facts.createdAt.getTime()));
  return out.sort((a, b) => a - b);
}

/**
 * Adds a contribution to in-memory stats (sign -1 takes it away), exactly as the store's SQL
 * expands it into `delivery_stat` deltas: `statIdx` at every level 0..3 with a key, each
 * coverage entry at its own level.
 */
export function addToStats(stats: MemoryStats, c: Contribution, sign = 1): void {
  if (c.statIdx.length > 0) {
    const n = c.statIdx.map(() => sign);
    for (let level = 0; level < DEFAULT_LEVEL; level++) {
      const key = c.keys[level];
      if (key !== null && key !== undefined) stats.add(level, key, c.statIdx, n);
    }
  }
  for (const ci of c.coverageIdx) {
    const level = Math.floor(ci / COVERAGE_STRIDE);
    const key = c.keys[level];
    if (key !== null && key !== undefined) stats.add(level, key, [ci % COVERAGE_STRIDE], [sign]);
  }
}

/** A carrier_performance_stat key: block length, block start (day number), carrier, destination. */
export interface PerformanceKey {
  span: number;
  day: number;
  carrier: string;
  destination: string;
}

/**
 * The carrier_performance_stat rows a contribution adds, as the store's SQL expands it: its
 * counts in the block of its day at every span, under its destination and under '*'.
 */
export function performanceRowsOf(
  c: Pick<Contribution, 'day' | 'carrier' | 'destination' | 'perfIdx'>,
): Array<PerformanceKey & { idx: number[] }> {
  const day = dayNumber(c.day);
  const out: Array<PerformanceKey & { idx: number[] }> = [];
  for (const span of SPANS)
    for (const destination of [c.destination, ALL_DESTINATIONS])
      out.push({
        span,
        day: blockStart(day, span),
        carrier: c.carrier,
        destination,
        idx: c.perfIdx,
      });
  return out;
}

function validDate(d: Date | null | undefined): Date | null {
  return d instanceof Date && !Number.isNaN(d.getTime()) ? new Date(d.getTime()) : null;
}

/**
 * Whether two contributions and their promises are equal in every stored column: an equal one
 * need not be written (PredictionStore.apply compares again, so a false "differs" only costs
 * a statement, never a wrong aggregate).
 */
export function sameContribution(
  a: { contribution: Contribution; promises: Promises },
  b: { contribution: Contribution; promises: Promises },
): boolean {
  const time = (d: Date | string | null) => (d === null ? null : new Date(d).getTime());
  const x = a.contribution;
  const y = b.contribution;
  // Compared in place: this runs for every shipment of every refresh, most of them equal.
  return (
    x.day === y.day &&
    x.carrier === y.carrier &&
    x.destination === y.destination &&
    sameEntries(x.keys, y.keys) &&
    sameEntries(x.statIdx, y.statIdx) &&
    sameEntries(x.coverageIdx, y.coverageIdx) &&
    sameEntries(x.perfIdx, y.perfIdx) &&
    time(a.promises.carrierDate) === time(b.promises.carrierDate) &&
    time(a.promises.windowLatest) === time(b.promises.windowLatest)
  );
}

/** Equal arrays, entry by entry (a missing key equals null, as in the stored JSON). */
function sameEntries<T>(a: readonly (T | null)[], b: readonly (T | null)[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if ((a[i] ?? null) !== (b[i] ?? null)) return false;
  return true;
}
