import {
  isPreShipment,
  trackingStatusPhase,
  type TrackingStatusCode,
} from '../../tracking/statuses';

/**
 * Where a parcel is on its way, for predictions: three stages of the main line, which every
 * delivered parcel passes in this order, and two detours.
 *
 * | stage              | tracking statuses                          |
 * | ------------------ | ------------------------------------------ |
 * | `label`            | none yet, `no_info`, `pre_transit`         |
 * | `in_transit`       | `in_transit`, `transit_limit_exceeded`     |
 * | `out_for_delivery` | `delivery_in_progress`                     |
 * | `failed_attempt`   | `unsuccessful_delivery` (detour)           |
 * | `pickup`           | `available_for_pickup` (detour)            |
 *
 * Final statuses (delivered, return_to_sender, cancelled, error, expired) have no stage: nothing
 * is predicted for them.
 */
export const STAGES = [
  'label',
  'in_transit',
  'out_for_delivery',
  'failed_attempt',
  'pickup',
] as const;
export type Stage = (typeof STAGES)[number];
export const STAGE_COUNT = STAGES.length;

/** Stage indexes (the order of STAGES); the main line is 0..2. */
export const LABEL = 0;
export const IN_TRANSIT = 1;
export const OUT_FOR_DELIVERY = 2;
export const FAILED_ATTEMPT = 3;
export const PICKUP = 4;
export const MAIN_LINE: readonly number[] = [LABEL, IN_TRANSIT, OUT_FOR_DELIVERY];

export function isMainLine(stage: number): boolean {
  return stage <= OUT_FOR_DELIVERY;
}

/** The stage a parcel with this status is in; null for final statuses. */
export function stageOfStatus(status: TrackingStatusCode | null): number | null {
  if (isPreShipment(status)) return LABEL;
  switch (status) {
    case 'in_transit':
    case 'transit_limit_exceeded':
      return IN_TRANSIT;
    case 'delivery_in_progress':
      return OUT_FOR_DELIVERY;
    case 'unsuccessful_delivery':
      return FAILED_ATTEMPT;
    case 'available_for_pickup':
      return PICKUP;
    default:
      return null;
  }
}

/** Statuses that prove the parcel left the label stage (entering `in_transit` or beyond). */
const MOVED: ReadonlySet<TrackingStatusCode> = new Set([
  'in_transit',
  'transit_limit_exceeded',
  'delivery_in_progress',
  'unsuccessful_delivery',
  'available_for_pickup',
  'delivered',
]);

/** A checkpoint as predictions read it: the carrier's time of the event and its status. */
export interface Checkpoint {
  readonly at: Date;
  readonly status: TrackingStatusCode;
}

/** What a parcel's journey is made of: its creation, its checkpoints and its current status. */
export interface ParcelTimeline {
  readonly createdAt: Date;
  /** The shipment's tracking status (the status engine's; may be derived, e.g. expired). */
  readonly status: TrackingStatusCode | null;
  /** Any order; invalid dates are ignored. */
  readonly checkpoints: readonly Checkpoint[];
}

/** A parcel's journey as the evidence (checkpoint times, never fetch times) tells it. Times in ms. */
export interface Journey {
  /** The current stage; null for a final status. */
  stage: number | null;
  /**
   * When the parcel entered each stage (index = stage), null if it never did. `label`: the
   * creation or the first checkpoint, whichever is earlier; `in_transit`: the first checkpoint
   * that proves it moved (any active status or the delivery); `out_for_delivery`: the first
   * out-for-delivery scan or failed attempt, or the delivery when the carrier sent neither, but
   * never for a parcel that went to a pickup point first; detours: their first checkpoint.
   * Along the main line entries never decrease.
   */
  entered: (number | null)[];
  /** Since when the current stage's statuses have been reported without interruption. */
  currentSince: number;
  /** The last checkpoint, or the creation when there is none. */
  lastEventAt: number;
  /** Delivered to the recipient: status delivered, never returned; the delivery's first checkpoint. */
  deliveredAt: number | null;
  /** First checkpoint that proves the carrier has the parcel (as the status engine's shippedAt). */
  shippedAt: number | null;
  failedAttempt: boolean;
  exception: boolean;
  returned: boolean;
  /**
   * The longest silence (time without a checkpoint) the parcel spent in each stage, up to the
   * delivery (or to its last checkpoint); null where it spent none. The silence before the first
   * checkpoint counts for `label`.
   */
  silences: (number | null)[];
}

const PHASE_RANK = { pre_shipment: 0, active: 1, final: 2 } as const;

/**
 * The checkpoints as the status engine reads them: valid dates, chronological (ties by phase),
 * and late pre-shipment events after the parcel moved dropped (a late "label created" never
 * moves a parcel back).
 */
export function effectiveCheckpoints(checkpoints: readonly Checkpoint[]): Checkpoint[] {
  const sorted = checkpoints
    .filter((c) => !Number.isNaN(c.at.getTime()))
    .sort(
      (a, b) =>
        a.at.getTime() - b.at.getTime() ||
        PHASE_RANK[trackingStatusPhase(a.status)] - PHASE_RANK[trackingStatusPhase(b.status)] ||
        (a.status < b.status ? -1 : a.status > b.status ? 1 : 0),
    );
  const moved = sorted.findIndex((c) => !isPreShipment(c.status));
  return moved < 0 ? sorted : sorted.filter((c, i) => i < moved || !isPreShipment(c.status));
}

/** The journey of a parcel (see Journey). Pure; linear in the number of checkpoints. */
export function journeyOf(timeline: ParcelTimeline): Journey {
  const created = timeline.createdAt.getTime();
  const cps = effectiveCheckpoints(timeline.checkpoints);
  const entered: (number | null)[] = [null, null, null, null, null];
  let shippedAt: number | null = null;
  let failedAttempt = false;
  let exception = timeline.status === 'error';
  let returned = timeline.status === 'return_to_sender';
  let pickedUpFirst = false;
  for (const c of cps) {
    const at = c.at.getTime();
    if (MOVED.has(c.status)) entered[IN_TRANSIT] ??= at;
    if (c.status === 'available_for_pickup') {
      entered[PICKUP] ??= at;
      if (entered[OUT_FOR_DELIVERY] === null) pickedUpFirst = true;
    }
    if (c.status === 'unsuccessful_delivery') {
      failedAttempt = true;
      entered[FAILED_ATTEMPT] ??= at;
    }
    // Out for delivery: its scan or a failed attempt; a delivery with neither (no such scan)
    // counts, unless the parcel went to a pickup point instead of being delivered at the door.
    if (
      c.status === 'delivery_in_progress' ||
      c.status === 'unsuccessful_delivery' ||
      (c.status === 'delivered' && !pickedUpFirst)
    )
      entered[OUT_FOR_DELIVERY] ??= at;
    if (c.status === 'error') exception = true;
    if (c.status === 'return_to_sender') returned = true;
    if (shippedAt === null && (MOVED.has(c.status) || c.status === 'return_to_sender'))
      shippedAt = at;
  }
  entered[LABEL] = cps.length > 0 ? Math.min(created, cps[0].at.getTime()) : created;

  const last = cps.length > 0 ? cps[cps.length - 1] : null;
  const deliveredAt =
    timeline.status === 'delivered' && !returned && last?.status === 'delivered'
      ? trailingRunStart(cps, (c) => c.status === 'delivered')
      : null;

  const stage = stageOfStatus(timeline.status);
  const lastEventAt = last ? last.at.getTime() : created;
  let currentSince = lastEventAt;
  if (stage !== null) {
    const run = trailingRunStart(cps, (c) => stageOfStatus(c.status) === stage);
    currentSince = run ?? entered[stage] ?? (stage === LABEL ? entered[LABEL]! : lastEventAt);
  }

  return {
    stage,
    entered,
    currentSince,
    lastEventAt,
    deliveredAt,
    shippedAt,
    failedAttempt,
    exception,
    returned,
    silences: silencesOf(created, cps, deliveredAt),
  };
}

/** Time of the first checkpoint of the trailing run matching `inRun`; null if the last does not. */
function trailingRunStart(
  cps: readonly Checkpoint[],
  inRun: (c: Checkpoint) => boolean,
): number | null {
  let start: number | null = null;
  for (let i = cps.length - 1; i >= 0 && inRun(cps[i]); i--) start = cps[i].at.getTime();
  return start;
}

/**
 * The longest gap between consecutive events, per stage the parcel was in during the gap (the
 * stage of the gap's first event). The creation counts as an event of `label` when it comes
 * before the first checkpoint. Gaps after the delivery do not count.
 */
function silencesOf(
  created: number,
  cps: readonly Checkpoint[],
  deliveredAt: number | null,
): (number | null)[] {
  const out: (number | null)[] = [null, null, null, null, null];
  let prevAt: number | null = null;
  let prevStage: number | null = null;
  if (cps.length === 0 || created < cps[0].at.getTime()) {
    prevAt = created;
    prevStage = LABEL;
  }
  for (const c of cps) {
    const at = c.at.getTime();
    if (deliveredAt !== null && at > deliveredAt) break;
    if (prevAt !== null && prevStage !== null) {
      const gap = at - prevAt;
      if (out[prevStage] === null || gap > out[prevStage]!) out[prevStage] = gap;
    }
    prevAt = at;
    prevStage = stageOfStatus(c.status);
  }
  return out;
}

/**
 * The parcel as it was at `at`: its checkpoints up to then and the status they gave (the last
 * one's; "no information" with none). What the backtest and the coverage of a delivered
 * parcel predict from: what was known then.
 */
export function timelineAt(timeline: ParcelTimeline, at: number): ParcelTimeline {
  const cps = effectiveCheckpoints(timeline.checkpoints).filter((c) => c.at.getTime() <= at);
  const last = cps.length > 0 ? cps[cps.length - 1] : null;
  return { createdAt: timeline.createdAt, status: last ? last.status : null, checkpoints: cps };
}

/**
 * The moments a parcel's prediction was (re)computed while it travelled: its creation, when it
 * had no checkpoint yet, and every checkpoint that changed its stage, up to the delivery. Each
 * with the stage it entered.
 */
export function stageChanges(
  timeline: ParcelTimeline,
  until: number,
): Array<{ at: number; stage: number }> {
  const created = timeline.createdAt.getTime();
  const cps = effectiveCheckpoints(timeline.checkpoints);
  const out: Array<{ at: number; stage: number }> = [];
  let current: number | null = null;
  if (cps.length === 0 || created < cps[0].at.getTime()) {
    out.push({ at: created, stage: LABEL });
    current = LABEL;
  }
  for (const c of cps) {
    const at = c.at.getTime();
    if (at >= until) break;
    const stage = stageOfStatus(c.status);
    if (stage !== null && stage !== current) out.push({ at, stage });
    current = stage;
  }
  return out;
}
