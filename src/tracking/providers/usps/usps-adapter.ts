import type {
  ProviderAdapter,
  ProviderCallContext,
  ProviderOutcome,
  ProviderTrackRequest,
} from '../remote/provider-adapter';
import { trackOneByOne } from '../remote/track-one-by-one';
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

/** One number per call (see trackOneByOne for how failures end the round). */
function track(
  ctx: ProviderCallContext,
  requests: readonly ProviderTrackRequest[],
): Promise<Map<string, ProviderOutcome>> {
  return trackOneByOne(ctx, requests, (c, req) => trackOne(c, req.trackingNumber));
}

export const uspsAdapter: ProviderAdapter = {
  type: 'usps',
  defaultBaseUrl: 'https://apis.usps.com',
  // v3 tracks one number per call (the batch form of v3r2 has an unconfirmed limit).
  maxBatchSize: 1,
  carriers: ['usps'],
  track,
};
