import { TrackingProviderError } from '../providers';
import { ProviderCredentialsRejected } from '../providers/remote/provider-adapter';
import { TimeoutError } from './concurrency';

const RETRY_BASE_MS = 15 * 60_000;
const RETRY_MAX_MS = 24 * 3_600_000;

/** A tracking that failed, and when the shipment is due again. */
export interface TrackFailure {
  shipmentId: string;
  error: string;
  transient: boolean;
  retryAt: Date;
  /**
   * A remote provider failed: its retry is the shipment's schedule (backoff, Retry-After),
   * never the job queue's quick retries, which would hammer a provider that is down.
   */
  remote?: boolean;
}

/**
 * How a failed tracking is rescheduled: a transient failure backs off exponentially from 15
 * minutes with the shipment's attempts (a provider's Retry-After first), up to a day; anything
 * else (refused credentials, a bad number) waits a day, so nothing is asked again in a storm.
 */
export function trackingFailure(
  shipment: { id: string; tracking_attempts: number },
  error: unknown,
  now: Date,
): TrackFailure {
  // Refused credentials are not asked again until someone updates them (no retry storm).
  const transient =
    TrackingProviderError.isRetryable(error) && !(error instanceof ProviderCredentialsRejected);
  const hint = error instanceof TrackingProviderError ? error.retryAfterMs : null;
  const backoff = transient
    ? Math.min(RETRY_MAX_MS, hint ?? RETRY_BASE_MS * 2 ** Math.min(shipment.tracking_attempts, 10))
    : RETRY_MAX_MS;
  return {
    shipmentId: shipment.id,
    error: tenantReason(error),
    transient,
    retryAt: new Date(now.getTime() + backoff),
  };
}

/** The operator's log line of a failure: its message and what the provider's server said. */
export function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const detail = (error as { detail?: unknown } | null)?.detail;
  return typeof detail === 'string' && detail !== ''
    ? `${message} (provider said: ${detail})`
    : message;
}

/**
 * What the tenant reads in `trackingError`: provider failures and timeouts, worded by us (never
 * a server's answer, see TrackingProviderError); anything else (a bug, a library error that may
 * quote what it read) only as a fixed phrase, its text going to the operator's log.
 */
export function tenantReason(error: unknown): string {
  return error instanceof TrackingProviderError ||
    error instanceof ProviderCredentialsRejected ||
    error instanceof TimeoutError
    ? error.message
    : 'tracking failed (unexpected error)';
}
