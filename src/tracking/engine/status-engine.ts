import {
  impliesShipped,
  isFinal,
  isPreShipment,
  trackingStatusPhase,
  type TrackingStatusCode,
} from '../statuses';
import { countryNameFromIso2, normalizeCountryIso2 } from './country-names';
import {
  DEFAULT_TRACKING_LIMITS,
  type EngineCheckpoint,
  type TrackingFacts,
  type TrackingLimits,
} from './tracking-input';

export const DAY_MS = 86_400_000;

export interface PreviousTracking {
  readonly trackingStatus: TrackingStatusCode | null;
  readonly lastStatusUpdate: Date | null;
}

export interface ComputeTrackingInput {
  readonly createdAt: Date;
  readonly trackingNumber: string | null;
  /** Used as destination carrier of a domestic parcel when no carrier reports one. */
  readonly originCarrier?: string | null;
  /** Any order; checkpoints with an invalid date are ignored. */
  readonly checkpoints: readonly EngineCheckpoint[];
  readonly facts?: TrackingFacts | null;
  /** The stored values before this computation; null the first time. */
  readonly previous: PreviousTracking | null;
  readonly now: Date;
  /** Defaults to DEFAULT_TRACKING_LIMITS (30 days to expire, 60 days of transit). */
  readonly limits?: TrackingLimits;
}

/** The read-only tracking fields of a shipment. */
export interface TrackingComputation {
  trackingStatus: TrackingStatusCode | null;
  daysInTransit: number | null;
  daysInIdle: number | null;
  shippedAt: Date | null;
  lastStatusUpdate: Date | null;
  expectedDeliveryDate: Date | null;
  originCountry: string | null;
  originCountryIso2: string | null;
  destinationCountry: string | null;
  destinationCountryIso2: string | null;
  destinationCarrier: string | null;
}

/** Statuses reported by the carrier that serves the recipient's address. */
const LAST_MILE_STATUSES: ReadonlySet<TrackingStatusCode> = new Set([
  'delivery_in_progress',
  'delivered',
  'unsuccessful_delivery',
  'available_for_pickup',
]);

/**
 * Turns a shipment's checkpoints into its read-only tracking fields. Pure: same input, same output.
 *
 * Rules (spec.md Shipment rules 5 and 6; DESIGN.md "The tracking engine"):
 * - trackingStatus is the status of the latest checkpoint. Once the parcel has left the
 *   pre-shipment phase, later pre_transit/no_info checkpoints (late "label created" events) are
 *   ignored: they never move a parcel back to pre-shipment.
 * - No checkpoints: null without a tracking number (nothing to track), no_info with one (a label
 *   exists, the carrier has not scanned it yet) — as AfterShip's "pending" and 17track's
 *   "not found" do.
 * - expired: still pre-shipment (no checkpoint, or only pre_transit/no_info ones) once
 *   `expiredAfterDays` have passed since createdAt. A checkpoint dated at or after that moment
 *   overrides it. A shipment without a tracking number never expires.
 * - transit_limit_exceeded: the latest checkpoint is in_transit and `transitLimitDays` have passed
 *   since shippedAt. Only a checkpoint with another status overrides it; the actionable active
 *   statuses (out for delivery, failed attempt, available for pickup) are never replaced.
 * - shippedAt: date of the first checkpoint whose status proves a pickup (see impliesShipped).
 * - daysInTransit: whole 24-hour days from shippedAt until now, or until the parcel reached its
 *   final status; null before shipping. Never negative.
 * - daysInIdle: whole days from createdAt until now while pre-shipment; afterwards frozen at the
 *   days from createdAt to the first checkpoint that left pre-shipment (or to the expiry moment).
 * - lastStatusUpdate: unchanged while the status is unchanged; otherwise the moment the new status
 *   began: the first checkpoint of the trailing run with that status, the threshold moment of a
 *   derived expired / transit_limit_exceeded, or now when no checkpoint explains it.
 * - expectedDeliveryDate: only what the carrier reports; the engine does not guess one.
 * - Countries: reported facts first, else origin = earliest checkpoint country (preferring
 *   rel=origin), destination = latest rel=destination or last-mile checkpoint country. Names are
 *   the English ISO names of `i18n-iso-countries`.
 */
export function computeTracking(input: ComputeTrackingInput): TrackingComputation {
  const limits = input.limits ?? DEFAULT_TRACKING_LIMITS;
  const now = input.now.getTime();
  const createdAt = input.createdAt.getTime();
  const hasNumber = (input.trackingNumber ?? '').trim() !== '';

  const sorted = input.checkpoints
    .filter((c) => !Number.isNaN(c.checkpointDate.getTime()))
    .sort(compareCheckpoints);
  const firstMovedIndex = sorted.findIndex((c) => !isPreShipment(c.status));
  const effective =
    firstMovedIndex < 0
      ? sorted
      : sorted.filter((c, i) => i < firstMovedIndex || !isPreShipment(c.status));
  const leftPreShipmentAt = firstMovedIndex < 0 ? null : time(sorted[firstMovedIndex]);
  const latest = effective.length > 0 ? effective[effective.length - 1] : null;
  const shippedCheckpoint = effective.find((c) => impliesShipped(c.status));
  const shippedAt = shippedCheckpoint ? time(shippedCheckpoint) : null;

  let status: TrackingStatusCode | null = null;
  let statusSince: number | null = null;
  if (latest) {
    status = latest.status;
    statusSince = runStart(effective, (c) => c.status === latest.status);
  } else if (hasNumber) {
    status = 'no_info';
  }

  const expiresAt = createdAt + limits.expiredAfterDays * DAY_MS;
  let expiredDerived = false;
  if (
    status !== null &&
    isPreShipment(status) &&
    now >= expiresAt &&
    (latest === null || time(latest) < expiresAt)
  ) {
    status = 'expired';
    statusSince = expiresAt;
    expiredDerived = true;
  }
  if (status === 'in_transit' && shippedAt !== null) {
    const limitAt = shippedAt + limits.transitLimitDays * DAY_MS;
    if (now >= limitAt) {
      status = 'transit_limit_exceeded';
      statusSince = limitAt;
    }
  }

  let daysInTransit: number | null = null;
  if (shippedAt !== null) {
    const end = isFinal(status) ? runStart(effective, (c) => isFinal(c.status)) : now;
    daysInTransit = wholeDays(shippedAt, end ?? now);
  }

  const idleEnd = isPreShipment(status)
    ? now
    : (leftPreShipmentAt ?? (expiredDerived ? expiresAt : now));
  const daysInIdle = wholeDays(createdAt, idleEnd);

  const places = resolvePlaces(sorted, input.facts ?? null, input.originCarrier ?? null);

  return {
    trackingStatus: status,
    daysInTransit,
    daysInIdle,
    shippedAt: shippedAt === null ? null : new Date(shippedAt),
    lastStatusUpdate: resolveLastStatusUpdate(status, statusSince, input.previous, now),
    expectedDeliveryDate: validDateOrNull(input.facts?.expectedDeliveryDate),
    ...places,
  };
}

function resolveLastStatusUpdate(
  status: TrackingStatusCode | null,
  statusSince: number | null,
  previous: PreviousTracking | null,
  now: number,
): Date | null {
  const previousAt = previous?.lastStatusUpdate ?? null;
  if (previous && previous.trackingStatus === status) {
    if (previousAt !== null || status === null) return previousAt;
  }
  // Never had a status and still has none: nothing ever changed.
  if (status === null && (previous === null || previous.trackingStatus === null)) return null;
  let at = statusSince ?? now;
  // A change cannot predate the change recorded before it; then it was observed now.
  if (previousAt !== null && at <= previousAt.getTime()) at = Math.max(now, previousAt.getTime());
  return new Date(at);
}

interface Places {
  originCountry: string | null;
  originCountryIso2: string | null;
  destinationCountry: string | null;
  destinationCountryIso2: string | null;
  destinationCarrier: string | null;
}

function resolvePlaces(
  sorted: readonly EngineCheckpoint[],
  facts: TrackingFacts | null,
  originCarrier: string | null,
): Places {
  const withCountry = sorted.filter((c) => normalizeCountryIso2(c.countryIso2) !== null);
  const reversed = [...withCountry].reverse();
  const originIso2 =
    normalizeCountryIso2(facts?.originCountryIso2) ??
    normalizeCountryIso2(
      (withCountry.find((c) => c.rel === 'origin') ?? withCountry[0])?.countryIso2,
    );
  const destinationIso2 =
    normalizeCountryIso2(facts?.destinationCountryIso2) ??
    normalizeCountryIso2(
      (
        reversed.find((c) => c.rel === 'destination') ??
        reversed.find((c) => LAST_MILE_STATUSES.has(c.status))
      )?.countryIso2,
    );
  const destinationCheckpointCarrier = [...sorted]
    .reverse()
    .find((c) => c.rel === 'destination' && nonEmpty(c.carrierCode))?.carrierCode;
  const domestic = originIso2 !== null && originIso2 === destinationIso2;
  const destinationCarrier =
    (nonEmpty(facts?.destinationCarrier) ? facts?.destinationCarrier : null) ??
    destinationCheckpointCarrier ??
    (domestic && nonEmpty(originCarrier) ? originCarrier : null);
  return {
    originCountry: countryNameFromIso2(originIso2),
    originCountryIso2: originIso2,
    destinationCountry: countryNameFromIso2(destinationIso2),
    destinationCountryIso2: destinationIso2,
    destinationCarrier: destinationCarrier ?? null,
  };
}

/** Chronological; ties broken by lifecycle phase, then by content, so input order never matters. */
function compareCheckpoints(a: EngineCheckpoint, b: EngineCheckpoint): number {
  return (
    time(a) - time(b) ||
    PHASE_RANK[trackingStatusPhase(a.status)] - PHASE_RANK[trackingStatusPhase(b.status)] ||
    tieKey(a).localeCompare(tieKey(b))
  );
}

const PHASE_RANK = { pre_shipment: 0, active: 1, final: 2 } as const;

function tieKey(c: EngineCheckpoint): string {
  return [c.status, c.countryIso2 ?? '', c.rel ?? '', c.carrierCode ?? ''].join('\u0000');
}

/** Date of the first checkpoint of the trailing run matching `inRun`; null if the last does not. */
function runStart(
  checkpoints: readonly EngineCheckpoint[],
  inRun: (c: EngineCheckpoint) => boolean,
): number | null {
  let start: number | null = null;
  for (let i = checkpoints.length - 1; i >= 0 && inRun(checkpoints[i]); i--) {
    start = time(checkpoints[i]);
  }
  return start;
}

function wholeDays(from: number, to: number): number {
  return Math.max(0, Math.floor((to - from) / DAY_MS));
}

function time(c: EngineCheckpoint): number {
  return c.checkpointDate.getTime();
}

function nonEmpty(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function validDateOrNull(value: Date | null | undefined): Date | null {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? new Date(value.getTime()) : null;
}
