import { conditionalQuantiles, DAY_MS, massAbove, TAIL_MEAN_MS } from './buckets';
import { DEFAULT_HISTOGRAMS } from './defaults';
import {
  DEFAULT_LEVEL,
  LEVELS,
  MIN_DELIVERIES,
  MIN_TAIL_DELIVERIES,
  type LaneKeys,
  type Level,
} from './lanes';
import { isMainLine, MAIN_LINE, type Journey } from './stages';
import { REMAINING, type StatsLookup } from './stats';

/** The window's quantiles: 10 % / 50 % / 90 %, an 80 % window around the likely day. */
export const WINDOW_PS: readonly number[] = [0.1, 0.5, 0.9];
export const NOMINAL_COVERAGE = 0.8;
/** How many deliveries the confidence's prior is worth (see `confidenceOf`). */
export const CONFIDENCE_PRIOR_WEIGHT = 20;
/** The prior coverage of a default window: we do not claim the nominal 80 % for it. */
export const DEFAULT_COVERAGE_PRIOR = 0.5;

export interface DeliveryWindow {
  earliest: Date;
  likely: Date;
  latest: Date;
}

/**
 * Where a prediction comes from. `kind`: what `expectedDeliveryDate` is (the carrier's own date
 * when it gave one, else `likely` of a window learnt from history or of the default); `level`
 * and `deliveries`: the back-off level the window came from and how many deliveries it learnt
 * from (0 for the default).
 */
export interface PredictionBasis {
  kind: 'carrier' | 'history' | 'default';
  level: Level;
  deliveries: number;
}

export interface DeliveryPrediction extends DeliveryWindow {
  /** Share of such windows that held the delivery, shrunk toward the prior (confidenceOf). */
  confidence: number;
  basis: PredictionBasis;
}

export interface PredictionInput {
  readonly journey: Journey;
  readonly keys: LaneKeys;
  /** The carrier's own expected delivery date, if it gave one. */
  readonly carrierDate?: Date | null;
  readonly now: Date;
}

/** One stage's window as durations from now, and the level it came from. */
export interface StageWindow {
  remaining: [number, number, number];
  level: number;
  deliveries: number;
}

/**
 * The window of a stage given the time already spent in it (`elapsed`): the 10/50/90 %
 * quantiles of "time from entering the stage to the delivery" among the deliveries that took
 * longer than `elapsed`, minus `elapsed`. From the first level of the back-off chain with
 * MIN_DELIVERIES deliveries of which MIN_TAIL_DELIVERIES took longer than `elapsed`, else the
 * default.
 */
export function stageWindow(
  stats: StatsLookup,
  keys: LaneKeys,
  stage: number,
  elapsed: number,
): StageWindow {
  const e = elapsed > 0 ? elapsed : 0;
  for (let level = 0; level < DEFAULT_LEVEL; level++) {
    const key = keys[level];
    if (key === null || key === undefined) continue;
    const h = stats.vector(level, key)?.histogram(stage, REMAINING);
    if (!h || h.total < MIN_DELIVERIES[level] || massAbove(h, e) < MIN_TAIL_DELIVERIES) continue;
    const q = conditionalQuantiles(h, e, WINDOW_PS);
    if (q) return { remaining: remainingOf(q, e), level, deliveries: h.total };
  }
  const q = conditionalQuantiles(DEFAULT_HISTOGRAMS[stage], e, WINDOW_PS);
  return {
    // Past even the default's tail (years late): the tail is memoryless.
    remaining: q
      ? remainingOf(q, e)
      : (WINDOW_PS.map((p) => -TAIL_MEAN_MS * Math.log(1 - p)) as [number, number, number]),
    level: DEFAULT_LEVEL,
    deliveries: 0,
  };
}

function remainingOf(q: number[], e: number): [number, number, number] {
  return [Math.max(0, q[0] - e), Math.max(0, q[1] - e), Math.max(0, q[2] - e)];
}

/**
 * The delivery window of a parcel on its way; null for a final status.
 *
 * Invariants (property-tested in predict.properties.spec.ts):
 * - earliest ≤ likely ≤ latest, and earliest ≥ now: never in the past;
 * - monotone with stage: at the same moment, with the same stats, a parcel that has reached a
 *   later stage of the main line (label → in transit → out for delivery) gets a `likely` and a
 *   `latest` no later than it would get at an earlier one: reaching a further stage never moves
 *   the promise out. By construction: on the main line, `likely` and `latest` are the minimum
 *   over every main-line stage the parcel entered so far of that stage's window, each
 *   conditioned on the time spent since entering it; reaching a further stage only adds a
 *   window to the minimum. `earliest` stays the current stage's (capped by `likely`): taking
 *   the minimum there would widen the window with an earlier stage's vaguer evidence (often
 *   its default). Detours (failed attempt, pickup) are not progress: their window stands alone
 *   and may be later.
 */
export function predictDelivery(
  input: PredictionInput,
  stats: StatsLookup,
): DeliveryPrediction | null {
  const { journey, keys } = input;
  const stage = journey.stage;
  if (stage === null) return null;
  const now = input.now.getTime();
  const entry = (s: number) => journey.entered[s] ?? journey.currentSince;
  const current = stageWindow(stats, keys, stage, now - entry(stage));
  const r = [...current.remaining];
  if (isMainLine(stage)) {
    for (const earlier of MAIN_LINE) {
      if (earlier >= stage) break;
      if (journey.entered[earlier] === null) continue;
      const w = stageWindow(stats, keys, earlier, now - entry(earlier)).remaining;
      for (let i = 1; i < 3; i++) if (w[i] < r[i]) r[i] = w[i];
    }
  }
  const likely = ceilMinute(now + r[1]);
  const latest = Math.max(likely, ceilMinute(now + r[2]));
  const earliest = Math.min(likely, ceilMinute(now + r[0]));
  const carrierDate = validDate(input.carrierDate);
  return {
    earliest: new Date(earliest),
    likely: new Date(likely),
    latest: new Date(latest),
    confidence: confidenceOf(stats, keys, current.level, stage),
    basis: {
      kind: carrierDate ? 'carrier' : current.level === DEFAULT_LEVEL ? 'default' : 'history',
      level: LEVELS[current.level],
      deliveries: Math.round(current.deliveries),
    },
  };
}

/**
 * How sure we are: the share of the windows of this (level, key, stage) that held the
 * delivery, with a prior worth CONFIDENCE_PRIOR_WEIGHT deliveries at the nominal 80 % (history)
 * or 50 % (default), so a new lane starts at the prior and earns its record:
 * (hits + w·prior) / (trials + w). Coverage is counted when a parcel is delivered (see
 * contribution.ts), per level the windows came from.
 */
export function confidenceOf(
  stats: StatsLookup,
  keys: LaneKeys,
  level: number,
  stage: number,
): number {
  const key = keys[level];
  const { hits, trials } = (key !== null && key !== undefined
    ? stats.vector(level, key)?.coverage(stage)
    : undefined) ?? { hits: 0, trials: 0 };
  const prior = level === DEFAULT_LEVEL ? DEFAULT_COVERAGE_PRIOR : NOMINAL_COVERAGE;
  const c = (hits + CONFIDENCE_PRIOR_WEIGHT * prior) / (trials + CONFIDENCE_PRIOR_WEIGHT);
  return Math.round(c * 100) / 100;
}

/** The shipment's expectedDeliveryDate: the carrier's own date when it gave one, else `likely`. */
export function expectedDeliveryDate(
  prediction: DeliveryWindow | null,
  carrierDate: Date | null | undefined,
): Date | null {
  return validDate(carrierDate) ?? prediction?.likely ?? null;
}

/** Whether a delivery at `deliveredAt` (ms) fell inside the window. */
export function windowHolds(window: DeliveryWindow, deliveredAt: number): boolean {
  return window.earliest.getTime() <= deliveredAt && deliveredAt <= window.latest.getTime();
}

/**
 * Whether a new window is worth `shipment.delivery_prediction_changed`: one of its bounds moved
 * by a day or more from `before`. Pass the window last announced (not merely the last computed),
 * so that small moves that add up to a day are announced once they do. A first window (nothing
 * before) and the end of predicting (a final status) are not: the shipment's own events say so.
 */
export function windowMoved(
  before: DeliveryWindow | null | undefined,
  after: DeliveryWindow | null | undefined,
): boolean {
  if (!before || !after) return false;
  return (
    Math.abs(after.earliest.getTime() - before.earliest.getTime()) >= DAY_MS ||
    Math.abs(after.likely.getTime() - before.likely.getTime()) >= DAY_MS ||
    Math.abs(after.latest.getTime() - before.latest.getTime()) >= DAY_MS
  );
}

function ceilMinute(ms: number): number {
  return Math.ceil(ms / 60_000) * 60_000;
}

function validDate(d: Date | null | undefined): Date | null {
  return d instanceof Date && !Number.isNaN(d.getTime()) ? d : null;
}
