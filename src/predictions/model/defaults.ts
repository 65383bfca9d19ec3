import { BUCKETS, DAY_MS, HOUR_MS, LAST_EDGE, LOWER, type HistogramView } from './buckets';
import { logNormalCdf, logNormalFromMedianP90, type LogNormal } from './lognormal';
import { FAILED_ATTEMPT, IN_TRANSIT, LABEL, OUT_FOR_DELIVERY, PICKUP, STAGE_COUNT } from './stages';

/**
 * What we predict before a team has history: per stage, the time from entering it to the
 * delivery as a log-normal given by its median and 90 % quantile. The numbers are derived from
 * the service levels carriers advertise, widened to cover a mix of domestic and cross-border
 * parcels (README "Defaults" gives the derivation):
 *
 * | stage            | median | 90 %  | from                                                                |
 * | ---------------- | ------ | ----- | ------------------------------------------------------------------- |
 * | label            | 4 d    | 12 d  | in transit below, plus 1-2 days until the shop hands the parcel over |
 * | in_transit       | 2.5 d  | 8 d   | domestic ground 1-5 business days; cross-border 1-3 weeks (the tail)  |
 * | out_for_delivery | 5 h    | 1 d   | delivered on the round that day; the rest after a failed attempt     |
 * | failed_attempt   | 1.5 d  | 6 d   | next attempt the next business day, else collected at a pickup point |
 * | pickup           | 2 d    | 6 d   | collected within the pickup point's holding period (about a week)    |
 *
 * Wide on purpose: a default window should hold the delivery more often than not, and it says
 * so through its lower confidence prior (predict.ts).
 */
export const DEFAULT_REMAINING: readonly LogNormal[] = (() => {
  const d: LogNormal[] = [];
  d[LABEL] = logNormalFromMedianP90(4 * DAY_MS, 12 * DAY_MS);
  d[IN_TRANSIT] = logNormalFromMedianP90(2.5 * DAY_MS, 8 * DAY_MS);
  d[OUT_FOR_DELIVERY] = logNormalFromMedianP90(5 * HOUR_MS, 1 * DAY_MS);
  d[FAILED_ATTEMPT] = logNormalFromMedianP90(1.5 * DAY_MS, 6 * DAY_MS);
  d[PICKUP] = logNormalFromMedianP90(2 * DAY_MS, 6 * DAY_MS);
  return d;
})();

/**
 * The longest silence (no checkpoint) beyond which a parcel counts as stalled before its lane
 * has MIN_SILENCES parcels: a label not scanned within 5 days; no scan in transit for 4 days (a
 * cross-border leg is typically 2-3 days without one); out for delivery and nothing for a day.
 * Detours have the `waiting` rule instead, so theirs are not used for attention.
 */
export const DEFAULT_SILENCE_P95_MS: readonly number[] = (() => {
  const d: number[] = [];
  d[LABEL] = 5 * DAY_MS;
  d[IN_TRANSIT] = 4 * DAY_MS;
  d[OUT_FOR_DELIVERY] = 1 * DAY_MS;
  d[FAILED_ATTEMPT] = 3 * DAY_MS;
  d[PICKUP] = 7 * DAY_MS;
  return d;
})();

/** Pseudo-deliveries of a default histogram (its shape matters, not its size). */
const PSEUDO = 1000;

/** The default of each stage as a histogram in the common buckets (bucket masses of the CDF). */
export const DEFAULT_HISTOGRAMS: readonly HistogramView[] = Array.from(
  { length: STAGE_COUNT },
  (_, stage) => {
    const d = DEFAULT_REMAINING[stage];
    const counts = new Float64Array(BUCKETS);
    for (let b = 0; b < BUCKETS - 1; b++)
      counts[b] = PSEUDO * (logNormalCdf(d, LOWER[b + 1]) - logNormalCdf(d, LOWER[b]));
    counts[BUCKETS - 1] = PSEUDO * (1 - logNormalCdf(d, LAST_EDGE));
    return { counts, offset: 0, total: counts.reduce((a, b) => a + b, 0) };
  },
);
