import type {
  ProviderAdapter,
  ProviderCallContext,
  ProviderOutcome,
  ProviderTrackRequest,
} from '../remote/provider-adapter';
import { providerUrl } from '../remote/provider-url';
import { trackOneByOne } from '../remote/track-one-by-one';
import { mapDhlShipment, pickDhlShipment } from './dhl-mapping';
import { DHL_CARRIERS } from './dhl-services';
import { dhlSettings } from './dhl-settings';

export const DHL_TRACK_PATH = '/track/shipments';

async function trackOne(
  ctx: ProviderCallContext,
  req: ProviderTrackRequest,
): Promise<ProviderOutcome> {
  const { apiKey } = dhlSettings(ctx.credentials);
  const res = await ctx.http.request({
    method: 'GET',
    url: providerUrl(ctx, DHL_TRACK_PATH),
    query: { trackingNumber: req.trackingNumber, language: 'en' },
    headers: { 'DHL-API-Key': apiKey },
    // 404 "No shipment with given tracking number found": nothing known (yet; new shipments
    // appear after 10-30 minutes).
    acceptStatuses: [404],
  });
  const shipment = res.status === 404 ? null : pickDhlShipment(res.body, req.carrierCode);
  return shipment ? mapDhlShipment(shipment) : { checkpoints: [], facts: {} };
}

/** One number per call (see trackOneByOne for how failures end the round). */
function track(
  ctx: ProviderCallContext,
  requests: readonly ProviderTrackRequest[],
): Promise<Map<string, ProviderOutcome>> {
  return trackOneByOne(ctx, requests, trackOne);
}

export const dhlAdapter: ProviderAdapter = {
  type: 'dhl',
  defaultBaseUrl: 'https://api-eu.dhl.com',
  maxBatchSize: 1,
  carriers: DHL_CARRIERS,
  /** Starter service level: 1 call/s and 250 calls/day [official KB]; raise it per credentials. */
  requestsPerSecond: 1,
  track,
};
