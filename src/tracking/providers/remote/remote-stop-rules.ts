import { TrackingProviderError } from '../tracking-provider-error';

/**
 * Attempts of one stop (the first included) before it is given up: with the backoff below,
 * about 44 hours, so that a provider's outage of a day or more does not leave numbers
 * tracked (and billed) there for good.
 */
export const STOP_MAX_ATTEMPTS = 12;
/** Wait after a first failed stop; it doubles with every further failure, up to the cap. */
export const STOP_RETRY_BASE_MS = 15 * 60_000;
/** The longest wait between two attempts. */
export const STOP_RETRY_CAP_MS = 6 * 60 * 60_000;
/** A claimed stop comes back after this long if its node died before recording the outcome. */
export const STOP_LEASE_MS = 10 * 60_000;

/**
 * When to try a failed stop again (`attempts`: the attempts made so far, this one included), or
 * null to give up. A permanent error ends it at once (e.g. the provider has no tracker of the
 * number: nothing a retry could stop); anything else (429, 5xx, timeout, refused credentials
 * that may be fixed) is retried after 15 min, 30 min, 1 h, 2 h, 4 h, then every 6 h, or the
 * provider's Retry-After when that is longer, until STOP_MAX_ATTEMPTS attempts were made.
 */
export function nextStopAttempt(attempts: number, error: unknown, now: Date): Date | null {
  if (error instanceof TrackingProviderError && !error.transient) return null;
  if (attempts >= STOP_MAX_ATTEMPTS) return null;
  const backoff = Math.min(STOP_RETRY_CAP_MS, STOP_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  const hint = error instanceof TrackingProviderError ? (error.retryAfterMs ?? 0) : 0;
  return new Date(now.getTime() + Math.max(backoff, hint));
}
