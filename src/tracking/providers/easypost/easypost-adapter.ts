import {
  addListedTracking,
  listedOutcomes,
  pickListedTracking,
  registerEach,
  type ListedTrackings,
} from '../remote/listed-trackings';
import {
  ProviderCredentialsRejected,
  type ProviderAdapter,
  type ProviderCallContext,
  type ProviderTrackRequest,
} from '../remote/provider-adapter';
import { providerUrl } from '../remote/provider-url';
import { TrackingProviderError, providerDetail } from '../tracking-provider-error';
import { carrierFromEasyPost, easyPostCarrierFor } from './easypost-carriers';
import { mapEasyPostTracker, record, text } from './easypost-tracker';
import { parseEasyPostPush, verifyEasyPostPush } from './easypost-webhook';

export const EASYPOST_DEFAULT_BASE_URL = 'https://api.easypost.com/v2';
/**
 * Trackers asked in one `GET /trackers?tracking_codes[]=…` and per page (UNCONFIRMED: EasyPost
 * documents the filter and `page_size`, not their maximum).
 */
export const EASYPOST_PAGE_SIZE = 100;
/** Pages followed at most for one batch, so a provider bug cannot loop us. */
const MAX_PAGES = 10;

/**
 * EasyPost Trackers: HTTP Basic (API key as user, empty password), one tracker created per
 * number (a duplicate within 3 months returns the original), read back in batches through the
 * list's `tracking_codes[]` filter; pushes are Events signed `X-Hmac-Signature`.
 * Credentials: secrets `apiKey` and `webhookSecret`.
 */
export const easypostAdapter: ProviderAdapter = {
  type: 'easypost',
  defaultBaseUrl: EASYPOST_DEFAULT_BASE_URL,
  maxBatchSize: EASYPOST_PAGE_SIZE,
  carriers: null,
  /** EasyPost publishes no fixed limit (UNCONFIRMED): a conservative budget. */
  requestsPerSecond: 5,

  register: (ctx, requests) => registerEach(ctx, requests, create),

  async track(ctx, requests) {
    const found = await listTrackers(ctx, requests);
    return listedOutcomes(
      'easypost',
      requests,
      (request) => pick(found, request),
      (tracker, request) => mapEasyPostTracker(tracker, request.carrierCode),
    );
  },

  // No stop: EasyPost has no call to end a tracker; it stops updating at a final status.

  verifyPush: verifyEasyPostPush,
  parsePush: parseEasyPostPush,
};

async function create(
  ctx: ProviderCallContext,
  request: ProviderTrackRequest,
): Promise<TrackingProviderError | null> {
  const carrier = easyPostCarrierFor(request.carrierCode);
  let refusal = await post(ctx, request.trackingNumber, carrier);
  // A carrier EasyPost does not take for this code: let it detect the carrier instead.
  if (refusal !== null && carrier !== null) refusal = await post(ctx, request.trackingNumber, null);
  if (refusal === null) return null;
  // Our words and the status; EasyPost's own (code, message) for the operator only.
  return TrackingProviderError.permanent(
    `easypost refused ${request.trackingNumber} (HTTP ${refusal.status})`,
    { provider: 'easypost', detail: refusal.detail },
  );
}

/** null when the tracker exists now; the refusal (400, 422) otherwise. */
async function post(
  ctx: ProviderCallContext,
  trackingCode: string,
  carrier: string | null,
): Promise<{ status: number; detail: string | null } | null> {
  const response = await ctx.http.request({
    method: 'POST',
    url: url(ctx, '/trackers'),
    headers: headers(ctx),
    json: {
      tracker:
        carrier === null
          ? { tracking_code: trackingCode }
          : { tracking_code: trackingCode, carrier },
    },
    acceptStatuses: [400, 422],
  });
  if (response.status < 300) return null;
  const error = record(record(response.body)?.error);
  return { status: response.status, detail: providerDetail(error?.code, error?.message) };
}

/** Every tracker of these numbers, by normalised number (newest first within a page). */
async function listTrackers(
  ctx: ProviderCallContext,
  requests: readonly ProviderTrackRequest[],
): Promise<ListedTrackings> {
  const found: ListedTrackings = new Map();
  if (requests.length === 0) return found;
  const numbers = [...new Set(requests.map((r) => r.trackingNumber))];
  let beforeId: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    // `tracking_codes[]` repeats, which the `query` map cannot say: the URL carries it.
    const query = new URLSearchParams();
    for (const n of numbers) query.append('tracking_codes[]', n);
    query.set('page_size', String(EASYPOST_PAGE_SIZE));
    if (beforeId !== null) query.set('before_id', beforeId);
    const response = await ctx.http.request({
      method: 'GET',
      url: `${url(ctx, '/trackers')}?${query.toString()}`,
      headers: headers(ctx),
    });
    const body = record(response.body);
    const trackers = Array.isArray(body?.trackers) ? body.trackers : null;
    if (trackers === null) {
      throw TrackingProviderError.transient('easypost answered a list without trackers', {
        provider: 'easypost',
      });
    }
    let lastId: string | null = null;
    for (const item of trackers) {
      const tracker = record(item);
      const code = text(tracker?.tracking_code);
      if (tracker === null || code === null) continue;
      lastId = text(tracker.id) ?? lastId;
      addListedTracking(found, code, tracker);
    }
    beforeId = body?.has_more === true ? lastId : null;
    if (beforeId === null) break;
  }
  return found;
}

/** The tracker of the requested carrier when there are several, else the latest updated. */
function pick(
  found: ListedTrackings,
  request: ProviderTrackRequest,
): Record<string, unknown> | null {
  const wanted = request.carrierCode?.toLowerCase() ?? null;
  return pickListedTracking(found, request, (t) => carrierFromEasyPost(t.carrier) === wanted);
}

const url = providerUrl;

function headers(ctx: ProviderCallContext): Record<string, string> {
  const apiKey = ctx.credentials.secrets.apiKey;
  if (!apiKey) {
    throw new ProviderCredentialsRejected('easypost', 401, 'easypost credentials have no apiKey');
  }
  return { Authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}` };
}
