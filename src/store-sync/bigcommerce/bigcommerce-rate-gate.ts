import { retryAfterMs } from '../transport/retry-after';
import { DEFAULT_RETRY_AFTER_MS, type RateGate, type StoreResponse } from '../transport/store-http';

/**
 * BigCommerce's request window as its answers describe it (X-Rate-Limit-Requests-Left,
 * X-Rate-Limit-Time-Reset-Ms; third-party transcription of the docs): once no request is left
 * (but those already running) the next one waits for the window to reset instead of spending a
 * 429; after a 429, the same (or Retry-After when a proxy gave one).
 */
export class BigCommerceRateGate implements RateGate {
  private blockedUntil = 0;

  /** `inFlight`: other requests a session may have running, left to them in each window. */
  constructor(private readonly inFlight = 0) {}

  delayBeforeSend(now: number): number {
    return Math.max(0, this.blockedUntil - now);
  }

  observe(response: StoreResponse, now: number): void {
    const left = Number(response.headers['x-rate-limit-requests-left']);
    const reset = resetMs(response);
    if (Number.isFinite(left) && left <= this.inFlight && reset !== null)
      this.blockedUntil = Math.max(this.blockedUntil, now + reset);
  }

  delayAfter429(response: StoreResponse, now: number): number {
    const delay =
      resetMs(response) ??
      retryAfterMs(response.headers['retry-after'], now) ??
      DEFAULT_RETRY_AFTER_MS;
    this.blockedUntil = Math.max(this.blockedUntil, now + delay);
    return delay;
  }
}

function resetMs(response: StoreResponse): number | null {
  const raw = response.headers['x-rate-limit-time-reset-ms'];
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return null;
  return Number(raw);
}
