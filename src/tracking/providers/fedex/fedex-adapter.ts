import type {
  ProviderAdapter,
  ProviderCallContext,
  ProviderOutcome,
  ProviderTrackRequest,
} from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';
import { fedexAuthorized, fedexUrl } from './fedex-auth';
import { fedexResultsByNumber, mapFedexResult } from './fedex-mapping';

export const FEDEX_TRACK_PATH = '/track/v1/trackingnumbers';
/** Most `trackingInfo` entries one Track call takes [official spec]. */
export const FEDEX_MAX_NUMBERS = 30;

async function trackChunk(
  ctx: ProviderCallContext,
  numbers: readonly string[],
): Promise<Map<string, ProviderOutcome>> {
  const res = await fedexAuthorized(ctx, (token) => ({
    method: 'POST',
    url: fedexUrl(ctx, FEDEX_TRACK_PATH),
    headers: { Authorization: `Bearer ${token}`, 'x-locale': 'en_US' },
    json: {
      includeDetailedScans: true,
      trackingInfo: numbers.map((trackingNumber) => ({ trackingNumberInfo: { trackingNumber } })),
    },
  }));
  const byNumber = fedexResultsByNumber(res.body);
  const out = new Map<string, ProviderOutcome>();
  for (const number of numbers) {
    const result = byNumber.get(number.toUpperCase());
    out.set(
      number,
      result
        ? mapFedexResult(result)
        : TrackingProviderError.transient('FedEx answered nothing for this number', {
            provider: 'fedex',
          }),
    );
  }
  return out;
}

/**
 * Up to 30 numbers per call (more are split). A permanent failure of a call is the outcome of
 * its numbers; a transient one (429, 5xx, timeout) is thrown so the caller ends the round, or,
 * when earlier calls of this batch answered, shared by the numbers not answered yet.
 */
async function track(
  ctx: ProviderCallContext,
  requests: readonly ProviderTrackRequest[],
): Promise<Map<string, ProviderOutcome>> {
  const numbers = [...new Set(requests.map((r) => r.trackingNumber))];
  const out = new Map<string, ProviderOutcome>();
  for (let i = 0; i < numbers.length; i += FEDEX_MAX_NUMBERS) {
    const chunk = numbers.slice(i, i + FEDEX_MAX_NUMBERS);
    try {
      for (const [n, outcome] of await trackChunk(ctx, chunk)) out.set(n, outcome);
    } catch (error) {
      if (!(error instanceof TrackingProviderError)) throw error;
      if (!error.transient) {
        for (const n of chunk) out.set(n, error);
        continue;
      }
      if (out.size === 0) throw error;
      for (const n of numbers.slice(i)) out.set(n, error);
      break;
    }
  }
  return out;
}

export const fedexAdapter: ProviderAdapter = {
  type: 'fedex',
  defaultBaseUrl: 'https://apis.fedex.com',
  maxBatchSize: FEDEX_MAX_NUMBERS,
  carriers: ['fedex'],
  track,
};
