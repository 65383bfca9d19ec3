import { DEFAULT_RETRY_AFTER_MS, retryAfter } from '../remote/fetch-provider-http';
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
  type ProviderHttpRequest,
  type ProviderHttpResponse,
  type ProviderTrackRequest,
  type StopOutcomes,
} from '../remote/provider-adapter';
import { providerUrl } from '../remote/provider-url';
import { TrackingProviderError, providerDetail } from '../tracking-provider-error';
import { afterShipSlugForCarrier, carrierFromAfterShipSlug } from './aftership-carriers';
import { mapAfterShipTracking, record, text } from './aftership-tracking';
import { parseAfterShipPush, verifyAfterShipPush } from './aftership-webhook';

export const AFTERSHIP_DEFAULT_BASE_URL = 'https://api.aftership.com';
/** The API version in every path; 2024-07 and later take and return flat tracking objects. */
export const AFTERSHIP_API_VERSION = '2025-01';
/**
 * Most numbers asked in one `GET /trackings?tracking_numbers=a,b,...` (UNCONFIRMED: AfterShip
 * documents the comma-separated filter, not its maximum).
 */
export const AFTERSHIP_MAX_NUMBERS_PER_LIST = 50;
/** Page size of that list (several trackings may share a number, one per courier). */
export const AFTERSHIP_LIST_PAGE_SIZE = 200;
/** Pages followed at most for one batch, so a provider bug cannot loop us. */
const MAX_PAGES = 10;

/** meta.code values of AfterShip's error table (official SDK README). */
const TRACKING_ALREADY_EXISTS = 4003;
const SLUG_INVALID = 4010;
const COURIER_INVALID = 4012;

/**
 * AfterShip Tracking API 2025-01: `as-api-key` header, a tracking created once per number
 * (POST /trackings, one per call), read back in batches through the list's `tracking_numbers`
 * filter, completed at the provider when a shipment is final; pushes are signed with
 * `aftership-hmac-sha256`. Credentials: secret `apiKey`, optional secret `webhookSecret`.
 */
export const aftershipAdapter: ProviderAdapter = {
  type: 'aftership',
  defaultBaseUrl: AFTERSHIP_DEFAULT_BASE_URL,
  maxBatchSize: AFTERSHIP_MAX_NUMBERS_PER_LIST,
  carriers: null,
  /** The tightest documented per-endpoint limit used here (GET /trackings: 6 req/s). */
  requestsPerSecond: 6,

  register: (ctx, requests) => registerEach(ctx, requests, create),

  async track(ctx, requests) {
    const found = await listTrackings(ctx, requests);
    return listedOutcomes(
      'aftership',
      requests,
      (request) => pick(found, request),
      (tracking, request) => mapAfterShipTracking(tracking, request.carrierCode),
    );
  },

  async stop(ctx, requests) {
    const found = await listTrackings(ctx, requests);
    for (const request of requests) {
      const tracking = pick(found, request);
      const id = text(tracking?.id);
      if (tracking === null || id === null || tracking.active === false) continue;
      const reason = completionReason(tracking);
      if (reason === null) {
        // Not final at AfterShip (the shipment was deleted here, or moved to other
        // credentials): completing it would need a false reason, so the tracking is deleted.
        await send(ctx, {
          method: 'DELETE',
          url: url(ctx, `/trackings/${encodeURIComponent(id)}`),
          headers: headers(ctx),
          // Deleted at AfterShip meanwhile: nothing left to stop.
          acceptStatuses: [404],
        });
        continue;
      }
      await send(ctx, {
        method: 'POST',
        url: url(ctx, `/trackings/${encodeURIComponent(id)}/mark-as-completed`),
        headers: headers(ctx),
        json: { reason },
        // Already completed, or deleted at AfterShip meanwhile: nothing left to stop.
        acceptStatuses: [400, 404],
      });
    }
    // Completed or deleted here, or nothing active was left to stop.
    return new Map(requests.map((r) => [r.trackingNumber, null])) as StopOutcomes;
  },

  verifyPush: verifyAfterShipPush,
  parsePush: parseAfterShipPush,
};

async function create(
  ctx: ProviderCallContext,
  request: ProviderTrackRequest,
): Promise<TrackingProviderError | null> {
  const slug = afterShipSlugForCarrier(request.carrierCode);
  let meta = await post(ctx, request.trackingNumber, slug);
  // A courier AfterShip does not take for this number: let it detect the courier instead.
  if (slug !== null && (meta?.code === SLUG_INVALID || meta?.code === COURIER_INVALID)) {
    meta = await post(ctx, request.trackingNumber, null);
  }
  if (meta === null || meta.code === TRACKING_ALREADY_EXISTS) return null;
  // Our words and the status; AfterShip's own (code, message) for the operator only.
  return TrackingProviderError.permanent(
    `AfterShip refused ${request.trackingNumber} (HTTP ${meta.status})`,
    { provider: 'aftership', detail: providerDetail(meta.code, meta.message) },
  );
}

/** null when created; the status and error `meta` of a refusal otherwise. */
async function post(
  ctx: ProviderCallContext,
  trackingNumber: string,
  slug: string | null,
): Promise<{ status: number; code: number | null; message: string | null } | null> {
  const response = await send(ctx, {
    method: 'POST',
    url: url(ctx, '/trackings'),
    headers: headers(ctx),
    json:
      slug === null
        ? { tracking_number: trackingNumber }
        : { tracking_number: trackingNumber, slug },
    acceptStatuses: [400, 409, 422],
  });
  if (response.status < 300) return null;
  const meta = record(record(response.body)?.meta);
  return {
    status: response.status,
    code: typeof meta?.code === 'number' ? meta.code : null,
    message: text(meta?.message),
  };
}

/** Every AfterShip tracking of these numbers, by normalised number. */
async function listTrackings(
  ctx: ProviderCallContext,
  requests: readonly ProviderTrackRequest[],
): Promise<ListedTrackings> {
  const found: ListedTrackings = new Map();
  if (requests.length === 0) return found;
  const numbers = [...new Set(requests.map((r) => r.trackingNumber))];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const response = await send(ctx, {
      method: 'GET',
      url: url(ctx, '/trackings'),
      headers: headers(ctx),
      query: {
        tracking_numbers: numbers.join(','),
        limit: AFTERSHIP_LIST_PAGE_SIZE,
        cursor: cursor ?? undefined,
      },
    });
    const data = record(record(response.body)?.data);
    if (data === null) {
      throw TrackingProviderError.transient('AfterShip answered a list without data', {
        provider: 'aftership',
      });
    }
    for (const item of Array.isArray(data.trackings) ? data.trackings : []) {
      const tracking = record(item);
      const number = text(tracking?.tracking_number);
      if (tracking !== null && number !== null) addListedTracking(found, number, tracking);
    }
    const pagination = record(data.pagination);
    cursor = pagination?.has_next_page === true ? text(pagination.next_cursor) : null;
    if (cursor === null) break;
  }
  return found;
}

/** The tracking of the requested courier when there are several, else the latest updated. */
function pick(
  found: ListedTrackings,
  request: ProviderTrackRequest,
): Record<string, unknown> | null {
  return pickListedTracking(
    found,
    request,
    (t) =>
      request.carrierCode !== null &&
      carrierFromAfterShipSlug(t.slug) === request.carrierCode.toLowerCase(),
  );
}

/**
 * Why a tracking is completed at AfterShip (`mark-as-completed` accepts DELIVERED, LOST and
 * RETURNED_TO_SENDER): only what AfterShip itself reports; other final statuses of ours
 * (cancelled, expired, error) are left to AfterShip's own expiry rather than mislabelled.
 */
function completionReason(tracking: Record<string, unknown>): string | null {
  if (tracking.tag === 'Delivered') return 'DELIVERED';
  if (tracking.subtag === 'Exception_011' || tracking.return_to_sender === true) {
    return 'RETURNED_TO_SENDER';
  }
  if (tracking.subtag === 'Exception_013') return 'LOST';
  return null;
}

/**
 * AfterShip answers 429 with `X-RateLimit-Reset` (unix seconds) and no Retry-After, so the
 * adapter reads the reset itself rather than leaving the default back-off.
 */
async function send(
  ctx: ProviderCallContext,
  request: ProviderHttpRequest,
): Promise<ProviderHttpResponse> {
  const response = await ctx.http.request({
    ...request,
    acceptStatuses: [...(request.acceptStatuses ?? []), 429],
  });
  if (response.status !== 429) return response;
  const reset = Number(response.headers['x-ratelimit-reset']);
  const untilReset = Number.isFinite(reset) && reset > 0 ? reset * 1000 - Date.now() : NaN;
  const fromReset =
    Number.isFinite(untilReset) && untilReset <= 3_600_000 ? Math.max(1000, untilReset) : null;
  throw TrackingProviderError.transient('aftership answered HTTP 429 (rate limit)', {
    provider: 'aftership',
    // A Retry-After, should AfterShip send one, wins; else the window's reset; else the default.
    retryAfterMs:
      retryAfter(response.headers['retry-after'], Date.now()) ??
      fromReset ??
      DEFAULT_RETRY_AFTER_MS,
  });
}

function url(ctx: ProviderCallContext, path: string): string {
  return providerUrl(ctx, `/tracking/${AFTERSHIP_API_VERSION}${path}`);
}

function headers(ctx: ProviderCallContext): Record<string, string> {
  const apiKey = ctx.credentials.secrets.apiKey;
  if (!apiKey)
    throw new ProviderCredentialsRejected('aftership', 401, 'AfterShip credentials have no apiKey');
  return { 'as-api-key': apiKey, 'Content-Type': 'application/json' };
}
