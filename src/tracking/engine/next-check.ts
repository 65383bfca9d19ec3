import { isFinal, type TrackingStatusCode } from '../statuses';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How often a shipment is refreshed in the background, by status:
 *
 * | status                                   | next check after                               |
 * |------------------------------------------|------------------------------------------------|
 * | delivery_in_progress                     | 1 h                                            |
 * | unsuccessful_delivery                    | 2 h (a new attempt usually follows)            |
 * | in_transit                               | 3 h                                            |
 * | available_for_pickup                     | 6 h                                            |
 * | transit_limit_exceeded                   | 12 h                                           |
 * | pre_transit, no_info                     | 6 h, 12 h, then 24 h (backoff by attempt)      |
 * | delivered, cancelled, return_to_sender,  | never (null)                                   |
 * | error, expired                           |                                                |
 * | null (no tracking number)                | never (null): checked when a number is set     |
 *
 * Active intervals double when the status has not changed for more than 7 days (a stalled
 * parcel rarely moves within hours), capped at 24 h. The pre-shipment backoff uses `attempt`
 * (consecutive checks that brought nothing new, 0 first); without it the age of the status
 * stands in for it: under 1 day 6 h, under 3 days 12 h, then 24 h.
 */
export const NEXT_CHECK_TABLE_MS: Readonly<Partial<Record<TrackingStatusCode, number>>> = {
  delivery_in_progress: 1 * HOUR_MS,
  unsuccessful_delivery: 2 * HOUR_MS,
  in_transit: 3 * HOUR_MS,
  available_for_pickup: 6 * HOUR_MS,
  transit_limit_exceeded: 12 * HOUR_MS,
};

const IDLE_BASE_MS = 6 * HOUR_MS;
const MAX_INTERVAL_MS = DAY_MS;
const STALLED_AFTER_MS = 7 * DAY_MS;

export function nextCheckAt(
  status: TrackingStatusCode | null,
  lastChange: Date | null,
  now: Date,
  attempt?: number,
): Date | null {
  if (status === null || isFinal(status)) return null;
  const age = lastChange === null ? 0 : Math.max(0, now.getTime() - lastChange.getTime());
  const activeInterval = NEXT_CHECK_TABLE_MS[status];
  let interval: number;
  if (activeInterval !== undefined) {
    interval = age > STALLED_AFTER_MS ? activeInterval * 2 : activeInterval;
  } else {
    const step =
      attempt !== undefined && Number.isFinite(attempt)
        ? Math.max(0, Math.floor(attempt))
        : age < DAY_MS
          ? 0
          : age < 3 * DAY_MS
            ? 1
            : 2;
    interval = IDLE_BASE_MS * 2 ** Math.min(step, 8);
  }
  return new Date(now.getTime() + Math.min(interval, MAX_INTERVAL_MS));
}
