import type {
  ProviderAdapter,
  ProviderCallContext,
  ProviderOutcome,
  ProviderTrackRequest,
} from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';
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
    url: `${ctx.credentials.baseUrl.replace(/\/+$/, '')}${DHL_TRACK_PATH}`,
    query: { trackingNumber: req.trackingNumber, language: 'en' },
    headers: { 'DHL-API-Key': apiKey },
    // 404 "No shipment with given tracking number found": nothing known (yet; new shipments
    // appear after 10-30 minutes).
    acceptStatuses: [404],
  });
  const shipment = res.status === 404 ? null : pickDhlShipment(res.body, req.carrierCode);
  return shipment ? mapDhlShipment(shipment) : { checkpoints: [], facts: {} };
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
      out.set(req.trackingNumber, await trackOne(ctx, req));
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

export const dhlAdapter: ProviderAdapter = {
  type: 'dhl',
  defaultBaseUrl: 'https://api-eu.dhl.com',
  maxBatchSize: 1,
  carriers: DHL_CARRIERS,
  /** Starter service level: 1 call/s and 250 calls/day [official KB]; raise it per credentials. */
  requestsPerSecond: 1,
  track,
};
