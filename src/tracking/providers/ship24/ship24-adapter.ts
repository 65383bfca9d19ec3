import {
  ProviderCredentialsRejected,
  ProviderNumberNotRegistered,
  type ProviderAdapter,
  type ProviderCallContext,
  type ProviderOutcome,
  type ProviderTrackRequest,
} from '../remote/provider-adapter';
import { providerUrl } from '../remote/provider-url';
import { TrackingProviderError, providerDetail } from '../tracking-provider-error';
import { eachUntilTransient } from '../remote/track-one-by-one';
import { carrierFromShip24Courier, firstCourierCode } from './ship24-carriers';
import { mapShip24Tracking, record, ship24TrackingNumber, text } from './ship24-tracking';
import { parseShip24Push, verifyShip24Push } from './ship24-webhook';

export const SHIP24_DEFAULT_BASE_URL = 'https://api.ship24.com';
/** Items of one `POST /public/v1/trackers/bulk` (official: up to 100). */
export const SHIP24_BULK_LIMIT = 100;

/**
 * Ship24 Tracking API (trackers plan): `Authorization: Bearer <apiKey>`, numbers registered as
 * trackers 100 at a time (bulk create, idempotent: `existing` counts as registered), results
 * read per number (`GET /trackers/search/{trackingNumber}/results`), trackers unsubscribed at
 * a final status (`PATCH /trackers/{trackerId}`), pushes authenticated with the webhook secret
 * as a Bearer token. Credentials: secrets `apiKey` and `webhookSecret`.
 */
export const ship24Adapter: ProviderAdapter = {
  type: 'ship24',
  defaultBaseUrl: SHIP24_DEFAULT_BASE_URL,
  maxBatchSize: SHIP24_BULK_LIMIT,
  carriers: null,
  /** Official per-endpoint limits: 10 req/s for tracker results (bulk create: 3 req/s). */
  requestsPerSecond: 10,

  async register(ctx, requests) {
    if (requests.length > SHIP24_BULK_LIMIT) {
      throw TrackingProviderError.permanent(`ship24 takes ${SHIP24_BULK_LIMIT} trackers per bulk`);
    }
    const out = new Map<string, TrackingProviderError | null>();
    if (requests.length === 0) return out;
    const response = await ctx.http.request({
      method: 'POST',
      url: url(ctx, '/public/v1/trackers/bulk'),
      headers: headers(ctx),
      json: requests.map((r) => ({ trackingNumber: r.trackingNumber })),
      // 207: some items failed; 400: all did, or the request itself is invalid.
      acceptStatuses: [207, 400],
    });
    const body = record(response.body);
    const items = Array.isArray(body?.data) ? body.data : null;
    if (items === null) {
      throw TrackingProviderError.permanent(`ship24 refused the bulk (HTTP ${response.status})`, {
        provider: 'ship24',
        detail: describeErrors(body),
      });
    }
    for (const raw of items) {
      const item = record(raw);
      const number = text(record(item?.inputData)?.trackingNumber);
      if (item === null || number === null) continue;
      out.set(
        number,
        item.itemStatus === 'created' || item.itemStatus === 'existing'
          ? null
          : TrackingProviderError.permanent(`ship24 refused ${number}`, {
              provider: 'ship24',
              detail: describeErrors(item),
            }),
      );
    }
    for (const request of requests) {
      if (!out.has(request.trackingNumber)) {
        out.set(
          request.trackingNumber,
          TrackingProviderError.transient(`ship24 said nothing of ${request.trackingNumber}`, {
            provider: 'ship24',
          }),
        );
      }
    }
    return out;
  },

  // Once Ship24 is down or limiting us, the rest of the batch waits for the next round.
  track: (ctx, requests) => eachUntilTransient(requests, (request) => results(ctx, request)),

  /**
   * Unsubscribes the number's trackers (`PATCH /trackers/{trackerId} {isSubscribed: false}`),
   * found through the results search (Ship24 answers trackers by id, and we keep none). A
   * number Ship24 has no tracker of is a permanent error (nothing to stop); a transient failure
   * ends the batch like in `track`.
   */
  stop: (ctx, requests) => eachUntilTransient(requests, (request) => unsubscribe(ctx, request)),

  verifyPush: verifyShip24Push,
  parsePush: parseShip24Push,
};

async function results(
  ctx: ProviderCallContext,
  request: ProviderTrackRequest,
): Promise<ProviderOutcome> {
  const response = await ctx.http.request({
    method: 'GET',
    url: url(
      ctx,
      `/public/v1/trackers/search/${encodeURIComponent(request.trackingNumber)}/results`,
    ),
    headers: headers(ctx),
    acceptStatuses: [404],
  });
  if (response.status === 404) {
    return new ProviderNumberNotRegistered('ship24', request.trackingNumber);
  }
  const trackings = record(record(response.body)?.data)?.trackings;
  const candidates = (Array.isArray(trackings) ? trackings : [])
    .map(record)
    .filter((t): t is Record<string, unknown> => t !== null && ship24TrackingNumber(t) !== null);
  if (candidates.length === 0) {
    return new ProviderNumberNotRegistered('ship24', request.trackingNumber);
  }
  // Several trackers of one number (one per courier): the requested courier's, else the first.
  const wanted = request.carrierCode?.toLowerCase() ?? null;
  const tracking =
    candidates.find(
      (t) => carrierFromShip24Courier(firstCourierCode(record(t.tracker)?.courierCode)) === wanted,
    ) ?? candidates[0];
  return mapShip24Tracking(tracking, request.carrierCode);
}

/** Unsubscribes every subscribed tracker of a number; null once none is left subscribed. */
async function unsubscribe(
  ctx: ProviderCallContext,
  request: ProviderTrackRequest,
): Promise<TrackingProviderError | null> {
  const unknown = () =>
    TrackingProviderError.permanent(`ship24 has no tracker of ${request.trackingNumber}`, {
      provider: 'ship24',
    });
  const found = await ctx.http.request({
    method: 'GET',
    url: url(
      ctx,
      `/public/v1/trackers/search/${encodeURIComponent(request.trackingNumber)}/results`,
    ),
    headers: headers(ctx),
    acceptStatuses: [404],
  });
  if (found.status === 404) return unknown();
  const trackings = record(record(found.body)?.data)?.trackings;
  const trackers = (Array.isArray(trackings) ? trackings : [])
    .map((t) => record(record(t)?.tracker))
    .filter((t): t is Record<string, unknown> => text(t?.trackerId) !== null);
  if (trackers.length === 0) return unknown();
  for (const tracker of trackers) {
    if (tracker.isSubscribed === false) continue;
    const patched = await ctx.http.request({
      method: 'PATCH',
      url: url(ctx, `/public/v1/trackers/${encodeURIComponent(text(tracker.trackerId)!)}`),
      headers: headers(ctx),
      json: { isSubscribed: false },
      // Deleted meanwhile: that tracker is no longer subscribed either.
      acceptStatuses: [404],
    });
    if (patched.status === 404 && trackers.length === 1) return unknown();
  }
  return null;
}

/** Ship24's own words of a refusal, for the operator only (never in a message). */
function describeErrors(body: Record<string, unknown> | null): string | null {
  const errors = Array.isArray(body?.errors) ? body.errors.map(record) : [];
  return providerDetail(...errors.flatMap((e) => [text(e?.code), text(e?.message)]));
}

const url = providerUrl;

function headers(ctx: ProviderCallContext): Record<string, string> {
  const apiKey = ctx.credentials.secrets.apiKey;
  if (!apiKey) {
    throw new ProviderCredentialsRejected('ship24', 401, 'ship24 credentials have no apiKey');
  }
  return {
    Authorization: `Bearer ${apiKey}`,
    'Content-Type': 'application/json; charset=utf-8',
  };
}
