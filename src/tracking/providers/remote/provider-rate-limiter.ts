import type { ThrottlerStorage } from '@nestjs/throttler';
import { TrackingProviderError } from '../tracking-provider-error';

/** Throttler name of provider budgets in the shared rate-limit storage. */
export const PROVIDER_THROTTLER = 'tracking-provider';

export interface RateLimitWait {
  (ms: number): Promise<void>;
}

const sleep: RateLimitWait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One request budget per credentials, shared by every node: each call takes a slot of a
 * one-second sliding window in the rate-limit storage (PostgreSQL by default, see
 * src/rate-limit). When the window is full the caller waits for a slot, a fraction of a second
 * at a time; when the wait would outlast `maxWaitMs` it gets a transient error instead, so a
 * refresh round never blocks behind a busy key (the shipment is retried later).
 */
export class ProviderRateLimiter {
  constructor(
    private readonly storage: ThrottlerStorage,
    private readonly wait: RateLimitWait = sleep,
  ) {}

  async acquire(key: string, perSecond: number, maxWaitMs: number): Promise<void> {
    const limit = Math.max(1, Math.floor(perSecond));
    const step = Math.max(20, Math.ceil(1000 / limit));
    let waited = 0;
    for (;;) {
      const record = await this.storage.increment(key, 1000, limit, 0, PROVIDER_THROTTLER);
      if (!record.isBlocked) return;
      const untilFree = Math.max(step, record.timeToBlockExpire * 1000);
      if (waited + step > maxWaitMs) {
        throw TrackingProviderError.transient(`request budget of ${limit}/s exhausted for ${key}`, {
          retryAfterMs: untilFree,
        });
      }
      await this.wait(step);
      waited += step;
    }
  }
}
