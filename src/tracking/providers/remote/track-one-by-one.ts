import type {
  ProviderCallContext,
  ProviderOutcome,
  ProviderTrackRequest,
} from './provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';

/**
 * `track` for providers that take one number per call. A transient failure (429, 5xx,
 * timeout) is thrown so the caller ends the round (a rate-limited provider is not asked again
 * at once); once some numbers were answered, they keep their answer and the rest get that
 * failure instead. A permanent failure is that number's outcome; any other error is thrown.
 */
export async function trackOneByOne(
  ctx: ProviderCallContext,
  requests: readonly ProviderTrackRequest[],
  trackOne: (ctx: ProviderCallContext, request: ProviderTrackRequest) => Promise<ProviderOutcome>,
): Promise<Map<string, ProviderOutcome>> {
  const out = new Map<string, ProviderOutcome>();
  for (const [i, req] of requests.entries()) {
    try {
      out.set(req.trackingNumber, await trackOne(ctx, req));
    } catch (error) {
      if (!(error instanceof TrackingProviderError)) throw error;
      if (!error.transient) {
        out.set(req.trackingNumber, error);
        continue;
      }
      if (out.size === 0) throw error;
      for (const rest of requests.slice(i)) out.set(rest.trackingNumber, error);
      break;
    }
  }
  return out;
}

/**
 * Calls `one` for each request in turn; once one fails transiently (429, 5xx, timeout), that
 * failure is the outcome of it and of every request after it, which wait for the next round.
 * Any other error is thrown. For providers whose batch calls (track, stop) take one number.
 */
export async function eachUntilTransient<T>(
  requests: readonly ProviderTrackRequest[],
  one: (request: ProviderTrackRequest) => Promise<T>,
): Promise<Map<string, T | TrackingProviderError>> {
  const out = new Map<string, T | TrackingProviderError>();
  let halted: TrackingProviderError | null = null;
  for (const request of requests) {
    if (halted === null) {
      try {
        out.set(request.trackingNumber, await one(request));
        continue;
      } catch (error) {
        if (!(error instanceof TrackingProviderError) || !error.transient) throw error;
        halted = error;
      }
    }
    out.set(request.trackingNumber, halted);
  }
  return out;
}
