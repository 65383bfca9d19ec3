import { addToStats, contributionOf, type ShipmentFacts } from '../contribution';
import { DAY_MS } from '../model/buckets';
import { laneKeys, normalizeCarrier } from '../model/lanes';
import { predictDelivery, windowHolds, type DeliveryPrediction } from '../model/predict';
import {
  effectiveCheckpoints,
  journeyOf,
  stageChanges,
  stageOfStatus,
  STAGES,
  timelineAt,
  type ParcelTimeline,
  type Stage,
} from '../model/stages';
import { MemoryStats } from '../model/stats';

/**
 * The backtest: replays a team's history in time order. At each moment a delivered parcel's
 * prediction was computed (its creation and each change of stage, and optionally every
 * `recheckEveryMs` while it sat in a stage), it predicts from the stats of the parcels
 * delivered strictly before that moment and from what was known of the parcel then (its
 * checkpoints up to that moment); at each delivery it adds the parcel to the stats, exactly as
 * the aggregates do. Then it scores each prediction against the actual delivery: whether the
 * window held it (coverage; the goal of an 80 % window is 80 ± 5 %), the absolute error of
 * `likely` in days, and, where the carrier gave a date (known from its first scan on), the
 * absolute error of that date on the same predictions.
 */
export interface BacktestOptions {
  /** Score only predictions made from then on (all earlier deliveries are still learnt). */
  since?: Date | null;
  /** Also predict every this many ms while a parcel stays in a stage (0: only at changes). */
  recheckEveryMs?: number;
  /** Sees every scored prediction (specs compare them with an oracle). */
  observe?: (scored: ScoredPrediction) => void;
}

export interface ScoredPrediction {
  parcel: ShipmentFacts;
  /** When it was predicted (ms). */
  at: number;
  stage: number;
  /** Whether the parcel had been in this stage before (back after a detour). */
  reentry: boolean;
  prediction: DeliveryPrediction;
  deliveredAt: number;
  hit: boolean;
}

/** Scores of a set of predictions. */
export interface BacktestScore {
  /** Delivered parcels predicted. */
  parcels: number;
  predictions: number;
  /** Share of windows holding the delivery; null without predictions. */
  coverage: number | null;
  /** Mean absolute error of `likely`, days. */
  maeDays: number | null;
  /** On the predictions where the carrier had given a date: both errors, to compare. */
  withCarrierDate: { predictions: number; maeDays: number | null; carrierMaeDays: number | null };
}

export interface BacktestReport {
  overall: BacktestScore;
  byCarrier: Array<{ carrier: string } & BacktestScore>;
  /** Windows from history vs from the default. */
  byBasis: { history: BacktestScore; default: BacktestScore };
  byStage: Array<{ stage: Stage } & BacktestScore>;
}

class Tally {
  readonly parcels = new Set<ShipmentFacts>();
  predictions = 0;
  covered = 0;
  absError = 0;
  carrierPredictions = 0;
  carrierOwnError = 0;
  carrierCaseError = 0;

  add(parcel: ShipmentFacts, hit: boolean, error: number, carrierError: number | null): void {
    this.parcels.add(parcel);
    this.predictions++;
    if (hit) this.covered++;
    this.absError += error;
    if (carrierError !== null) {
      this.carrierPredictions++;
      this.carrierOwnError += carrierError;
      this.carrierCaseError += error;
    }
  }

  score(): BacktestScore {
    const per = (x: number, n: number) => (n > 0 ? round(x / n) : null);
    return {
      parcels: this.parcels.size,
      predictions: this.predictions,
      coverage: per(this.covered, this.predictions),
      maeDays: per(this.absError, this.predictions),
      withCarrierDate: {
        predictions: this.carrierPredictions,
        maeDays: per(this.carrierCaseError, this.carrierPredictions),
        carrierMaeDays: per(this.carrierOwnError, this.carrierPredictions),
      },
    };
  }
}

interface Event {
  at: number;
  /** 0: a prediction, 1: a delivery (predictions at the same instant come first). */
  kind: 0 | 1;
  parcel: ShipmentFacts;
  deliveredAt: number;
}

export function runBacktest(
  history: readonly ShipmentFacts[],
  options: BacktestOptions = {},
): BacktestReport {
  const since = options.since?.getTime() ?? -Infinity;
  const every = options.recheckEveryMs ?? 0;
  const events: Event[] = [];
  for (const parcel of history) {
    const deliveredAt = journeyOf(parcel).deliveredAt;
    if (deliveredAt === null) continue;
    const changes = stageChanges(parcel, deliveredAt);
    changes.forEach((change, i) => {
      const until = i + 1 < changes.length ? changes[i + 1].at : deliveredAt;
      events.push({ at: change.at, kind: 0, parcel, deliveredAt });
      if (every > 0)
        for (let at = change.at + every; at < until; at += every)
          events.push({ at, kind: 0, parcel, deliveredAt });
    });
    events.push({ at: deliveredAt, kind: 1, parcel, deliveredAt });
  }
  events.sort((a, b) => a.at - b.at || a.kind - b.kind);

  const stats = new MemoryStats();
  const overall = new Tally();
  const carriers = new Map<string, Tally>();
  const bases = { history: new Tally(), default: new Tally() };
  const stages = STAGES.map(() => new Tally());
  for (const e of events) {
    if (e.kind === 1) {
      addToStats(stats, contributionOf(e.parcel, { promises: null, stats }));
      continue;
    }
    if (e.at < since) continue;
    const journey = journeyOf(timelineAt(e.parcel, e.at));
    const p = predictDelivery({ journey, keys: laneKeys(e.parcel), now: new Date(e.at) }, stats);
    if (!p || journey.stage === null) continue;
    const hit = windowHolds(p, e.deliveredAt);
    const error = Math.abs(p.likely.getTime() - e.deliveredAt) / DAY_MS;
    const carrierDate = e.parcel.carrierDate;
    const carrierError =
      carrierDate && journey.shippedAt !== null
        ? Math.abs(carrierDate.getTime() - e.deliveredAt) / DAY_MS
        : null;
    options.observe?.({
      parcel: e.parcel,
      at: e.at,
      stage: journey.stage,
      reentry: isReentry(timelineAt(e.parcel, e.at)),
      prediction: p,
      deliveredAt: e.deliveredAt,
      hit,
    });
    const carrier = normalizeCarrier(e.parcel.carrier);
    if (!carriers.has(carrier)) carriers.set(carrier, new Tally());
    for (const tally of [
      overall,
      carriers.get(carrier)!,
      p.basis.level === 'default' ? bases.default : bases.history,
      stages[journey.stage],
    ])
      tally.add(e.parcel, hit, error, carrierError);
  }
  return {
    overall: overall.score(),
    byCarrier: [...carriers]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([carrier, t]) => ({ carrier, ...t.score() })),
    byBasis: { history: bases.history.score(), default: bases.default.score() },
    byStage: STAGES.map((stage, i) => ({ stage, ...stages[i].score() })).filter(
      (s) => s.predictions > 0,
    ),
  };
}

/**
 * Whether a parcel is back in its current stage after another one (out for delivery again after
 * a failed attempt): its stage was entered before the current run of it began, with a checkpoint
 * of another stage in between.
 */
export function isReentry(timeline: ParcelTimeline): boolean {
  const journey = journeyOf(timeline);
  const stage = journey.stage;
  const from = stage === null ? null : journey.entered[stage];
  if (from === null) return false;
  return effectiveCheckpoints(timeline.checkpoints).some((c) => {
    const t = c.at.getTime();
    const s = stageOfStatus(c.status);
    return t > from && t < journey.currentSince && s !== null && s !== stage;
  });
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The report as the CLI prints it: one line per carrier, then the totals. */
export function formatBacktest(report: BacktestReport): string {
  const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)} %`);
  const d = (x: number | null) => (x === null ? '-' : x.toFixed(2));
  const header = [
    'carrier',
    'parcels',
    'predictions',
    'coverage',
    'MAE likely (d)',
    'with carrier date',
    'MAE likely (d)',
    'MAE carrier (d)',
  ];
  const line = (name: string, s: BacktestScore) => [
    name,
    String(s.parcels),
    String(s.predictions),
    pct(s.coverage),
    d(s.maeDays),
    String(s.withCarrierDate.predictions),
    d(s.withCarrierDate.maeDays),
    d(s.withCarrierDate.carrierMaeDays),
  ];
  const rows = [
    header,
    ...report.byCarrier.map((c) => line(c.carrier, c)),
    line('all', report.overall),
    line('  from history', report.byBasis.history),
    line('  from default', report.byBasis.default),
  ];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '),
    )
    .join('\n');
}
