import { TRACKING_STATUS_CODES, type TrackingStatusCode } from '../../tracking/statuses';
import { conditionalQuantiles, DAY_MS } from './buckets';
import { DEFAULT_SILENCE_P95_MS } from './defaults';
import { DEFAULT_LEVEL, MIN_SILENCES, type LaneKeys } from './lanes';
import type { DeliveryWindow } from './predict';
import { FAILED_ATTEMPT, isMainLine, PICKUP, stageOfStatus, type Journey } from './stages';
import { SILENCE, type StatsLookup } from './stats';

/**
 * Why a shipment needs attention, most urgent first (`primary` is the first that applies):
 * - `exception`: an error status (`error`: customs hold or another exception; `expired`: no
 *   tracking information for 30 days);
 * - `stalled`: on the main line and no checkpoint for longer than the 95th percentile of the
 *   longest silence delivered parcels of its lane spent in that stage;
 * - `late`: past the `latest` of its window, or past the promised date where one is known;
 * - `waiting`: at a pickup point, or after a failed attempt, for more than N days (workspace
 *   setting).
 */
export const ATTENTION_CODES = ['exception', 'stalled', 'late', 'waiting'] as const;
export type AttentionCode = (typeof ATTENTION_CODES)[number];

/** The workspace's setting; 3 days leave most of a pickup point's week-long holding period. */
export const DEFAULT_WAITING_DAYS = 3;

export interface AttentionSettings {
  readonly waitingDays: number;
}

export interface AttentionInput {
  readonly status: TrackingStatusCode | null;
  readonly journey: Journey;
  readonly keys: LaneKeys;
  /** The window as stored at the last status change (a fresh one is never in the past). */
  readonly prediction: DeliveryWindow | null;
  /** The order's promised delivery date, where known. */
  readonly promisedAt?: Date | null;
}

export interface Attention {
  /** Every rule that applies, most urgent first. */
  codes: AttentionCode[];
  primary: AttentionCode | null;
  /**
   * The next moment a time rule could start to apply with no new checkpoint (silence reaching
   * the stalled threshold, the window's end, the waiting days); null when none can. Attention
   * must be evaluated again then: a status change alone does not catch a parcel going quiet.
   */
  recheckAt: Date | null;
}

const EXCEPTION_STATUSES: ReadonlySet<TrackingStatusCode | null> = new Set(['error', 'expired']);

/**
 * Whether a decision says anything of a parcel with this status: a window (it is in a stage)
 * or attention (an exception). Delivered, cancelled and returned parcels get neither.
 */
export function isDecidable(status: TrackingStatusCode | null): boolean {
  return stageOfStatus(status) !== null || EXCEPTION_STATUSES.has(status);
}

/** The status codes `isDecidable` holds for (a shipment without a status is decidable too). */
export const DECIDABLE_STATUSES: readonly TrackingStatusCode[] =
  TRACKING_STATUS_CODES.filter(isDecidable);

/**
 * The silence after which a parcel in this stage is stalled: the 95th percentile of the longest
 * silence per delivered parcel in the stage, from the first back-off level with MIN_SILENCES
 * parcels, else the stage's default. The longest silence per parcel, not every gap: with every
 * gap, the many short gaps between scans push the 95th percentile below the one long leg every
 * parcel has (a line haul, customs), and half the parcels on that leg would be flagged; per
 * parcel, 5 % of eventually delivered parcels are flagged at some point.
 */
export function stalledAfter(stats: StatsLookup, keys: LaneKeys, stage: number): number {
  for (let level = 0; level < DEFAULT_LEVEL; level++) {
    const key = keys[level];
    if (key === null || key === undefined) continue;
    const h = stats.vector(level, key)?.histogram(stage, SILENCE);
    if (!h || h.total < MIN_SILENCES) continue;
    const q = conditionalQuantiles(h, 0, [0.95]);
    if (q) return q[0];
  }
  return DEFAULT_SILENCE_P95_MS[stage];
}

/** Which attention rules apply to a shipment at `now` (pure; see ATTENTION_CODES). */
export function attentionOf(
  input: AttentionInput,
  stats: StatsLookup,
  settings: AttentionSettings,
  now: Date,
): Attention {
  const t = now.getTime();
  if (EXCEPTION_STATUSES.has(input.status))
    return { codes: ['exception'], primary: 'exception', recheckAt: null };
  const { journey } = input;
  const stage = journey.stage;
  if (stage === null) return { codes: [], primary: null, recheckAt: null };

  const codes: AttentionCode[] = [];
  const pending: number[] = [];
  if (isMainLine(stage)) {
    const at = journey.lastEventAt + stalledAfter(stats, input.keys, stage);
    if (t > at) codes.push('stalled');
    else pending.push(at);
  }
  const ends = [input.prediction?.latest, input.promisedAt]
    .filter((d): d is Date => d instanceof Date && !Number.isNaN(d.getTime()))
    .map((d) => d.getTime());
  if (ends.some((end) => t > end)) codes.push('late');
  else pending.push(...ends);
  if (stage === FAILED_ATTEMPT || stage === PICKUP) {
    const at = journey.currentSince + Math.max(0, settings.waitingDays) * DAY_MS;
    if (t > at) codes.push('waiting');
    else pending.push(at);
  }
  // "after" moments: a rule applies strictly past its threshold.
  const next = pending.length > 0 ? Math.min(...pending) + 1 : null;
  return {
    codes,
    primary: codes[0] ?? null,
    recheckAt: next === null ? null : new Date(Math.max(next, t + 1)),
  };
}
