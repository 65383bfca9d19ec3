import type {
  ProviderAdapter,
  ProviderCallContext,
  ProviderOutcome,
  ProviderTrackRequest,
} from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';
import { uspsAuthorized, uspsUrl } from './usps-auth';
import { mapUspsTracking, type UspsTrackingResponse } from './usps-mapping';

export const USPS_TRACK_PATH = '/tracking/v3/tracking/';

async function trackOne(ctx: ProviderCallContext, number: string): Promise<ProviderOutcome> {
  const res = await uspsAuthorized(ctx, (token) => ({
    method: 'GET',
    url: uspsUrl(ctx, `${USPS_TRACK_PATH}${encodeURIComponent(number)}`),
    query: { expand: 'DETAIL' },
    headers: { Authorization: `Bearer ${token}` },
    acceptStatuses: [404],
  }));
  if (res.status === 404 || typeof res.body !== 'object' || res.body === null) {
    return { checkpoints: [], facts: {} };
  }
  return mapUspsTracking(res.body as UspsTrackingResponse);
}

/**
 * One number per call. A transient failure (429, 5xx, timeout) is thrown so the caller ends
 * the round (a rate-limited provider is not asked again at once); a permanent one is that
 * number's outcome.
 */
async function track(
  ctx: ProviderCallContext,
  requests: readonly ProviderTrackRequest[],
): Promise<Map<string, ProviderOutcome>> {
  const out = new Map<string, ProviderOutcome>();
  for (const [i, req] of requests.entries()) {
    try {
      out.set(req.trackingNumber, await trackOne(ctx, req.trackingNumber));
    } catch (error) {
      if (!(error instanceof TrackingProviderError)) throw error;
      if (!error.transient) {
        out.set(req.trackingNumber, error);
        continue;
      }
      // Thrown, so the caller stops the round; numbers answered already keep their answer.
      if (out.size === 0) throw error;
      for (const rest of requests.slice(i)) out.set(rest.trackingNumber, error);
      break;
    }
  }
  return out;
}

export const uspsAdapter: ProviderAdapter = {
  type: 'usps',
  defaultBaseUrl: 'https://apis.usps.com',
  // v3 tracks one number per call (the batch form of v3r2 has an unconfirmed limit).
  maxBatchSize: 1,
  carriers: ['usps'],
  track,
};
