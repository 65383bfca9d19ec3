import { EventTypes } from '../events/event-types';

const HOUR_MS = 3_600_000;
/**
 * How long after an hour ends its digest waits: an event's `created_at` is its transaction's
 * start, so a transaction still open at the hour's end commits events dated before it.
 */
export const DIGEST_LAG_MS = 5 * 60_000;

/** The hour a digest at `now` covers: the last one that ended at least DIGEST_LAG_MS ago. */
export function digestPeriod(now: Date): { start: Date; end: Date } {
  const end = Math.floor((now.getTime() - DIGEST_LAG_MS) / HOUR_MS) * HOUR_MS;
  return { start: new Date(end - HOUR_MS), end: new Date(end) };
}

/** Attention reasons in the order a digest names them (most urgent first). */
const ATTENTION = [
  [EventTypes.shipmentException, 'exception'],
  [EventTypes.shipmentLate, 'late'],
  [EventTypes.shipmentStalled, 'stalled'],
  [EventTypes.shipmentWaiting, 'waiting'],
] as const;

const parcels = (n: number) => (n === 1 ? '1 parcel' : `${n} parcels`);
const hhmm = (d: Date) => d.toISOString().slice(11, 16);

/**
 * The digest's text for a workspace's hour: the parcels that started to need attention, by
 * reason, then the delivery estimates that moved (null: nothing to tell).
 */
export function digestMessage(
  workspaceTitle: string,
  period: { start: Date; end: Date },
  counts: ReadonlyMap<string, number>,
): string | null {
  const reasons = ATTENTION.filter(([type]) => (counts.get(type) ?? 0) > 0).map(
    ([type, word]) => `${counts.get(type)} ${word}`,
  );
  const attention = ATTENTION.reduce((sum, [type]) => sum + (counts.get(type) ?? 0), 0);
  const moved = counts.get(EventTypes.shipmentDeliveryPredictionChanged) ?? 0;
  const parts: string[] = [];
  if (attention > 0)
    parts.push(`${parcels(attention)} started to need attention (${reasons.join(', ')})`);
  if (moved > 0) parts.push(`the delivery estimate of ${parcels(moved)} moved by a day or more`);
  if (parts.length === 0) return null;
  return `${workspaceTitle}, ${hhmm(period.start)}–${hhmm(period.end)} UTC: ${parts.join('; ')}.`;
}
