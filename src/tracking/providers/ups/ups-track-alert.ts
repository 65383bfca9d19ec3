import type {
  ProviderCallContext,
  ProviderTrackRequest,
  PushSubscription,
} from '../remote/provider-adapter';
import { TrackingProviderError, providerDetail } from '../tracking-provider-error';
import { upsAuthorized, upsUrl } from './ups-auth';
import { UPS_LOCALE, UPS_TRANSACTION_SRC, upsTransId, upsWebhookSecret } from './ups-settings';

/**
 * Track Alert v2 standard package subscription (UPS-API/api-documentation
 * `UPSTrackAlertEnhanced.yaml`, "UPS Track Alert API v2"; shared/carrier-apis.md 5b): no
 * `destination` in the request any more, the webhook URL and its credentials are set in the
 * UPS portal ("Manage Webhook Credentials").
 */
export const UPS_TRACK_ALERT_PATH = '/api/track/v2/subscription/standard/package';
export const UPS_TRACK_ALERT_MAX_NUMBERS = 100;
/** "Each 1Z subscription is valid for 14 days" (Track Alert FAQ). */
export const UPS_TRACK_ALERT_LIFETIME_MS = 14 * 24 * 3_600_000;
/** Track Alert takes 1Z package numbers (the standard subscription's documented pattern). */
export const UPS_TRACK_ALERT_NUMBER = /^1Z[0-9A-Z]{16}$/;

const normalized = (number: string) => number.trim().toUpperCase();

/** UPS's own words of a refusal, for the operator only (never in a message). */
function describeErrors(body: unknown): string | null {
  const errors = (body as { response?: { errors?: unknown } } | null)?.response?.errors;
  return providerDetail(
    ...(Array.isArray(errors) ? errors : []).flatMap((e: { code?: unknown; message?: unknown }) => [
      typeof e?.code === 'string' ? e.code : null,
      typeof e?.message === 'string' ? e.message : null,
    ]),
  );
}

/**
 * Subscribes 1Z numbers (100 per request) so that UPS pushes their events for 14 days; only
 * with credentials that have a `webhookSecret` (the client secret UPS uses at our token URL
 * before pushing). Numbers UPS lists as invalid, or a request it refuses (400 VSS...), are
 * permanent refusals.
 */
export const upsTrackAlert: PushSubscription = {
  lifetimeMs: UPS_TRACK_ALERT_LIFETIME_MS,
  maxBatchSize: UPS_TRACK_ALERT_MAX_NUMBERS,

  accepts: (credentials, request) =>
    upsWebhookSecret(credentials) !== null &&
    UPS_TRACK_ALERT_NUMBER.test(normalized(request.trackingNumber)),

  async subscribe(ctx: ProviderCallContext, requests: readonly ProviderTrackRequest[]) {
    if (requests.length > UPS_TRACK_ALERT_MAX_NUMBERS) {
      throw TrackingProviderError.permanent(
        `UPS Track Alert takes ${UPS_TRACK_ALERT_MAX_NUMBERS} numbers per subscription`,
        { provider: 'ups' },
      );
    }
    const out = new Map<string, TrackingProviderError | null>();
    if (requests.length === 0) return out;
    const res = await upsAuthorized(ctx, (token) => ({
      method: 'POST',
      url: upsUrl(ctx, UPS_TRACK_ALERT_PATH),
      headers: {
        Authorization: `Bearer ${token}`,
        transId: upsTransId(),
        transactionSrc: UPS_TRANSACTION_SRC,
      },
      json: {
        locale: UPS_LOCALE,
        countryCode: 'US',
        trackingNumberList: requests.map((r) => normalized(r.trackingNumber)),
      },
      // The whole subscription request rejected (VSS codes), invalid numbers listed or not.
      acceptStatuses: [400],
    }));
    const refused = (what: string, detail: string | null = null) =>
      TrackingProviderError.permanent(`UPS Track Alert refused ${what}`, {
        provider: 'ups',
        detail,
      });
    if (res.status === 400) {
      const error = refused('the subscription (HTTP 400)', describeErrors(res.body));
      for (const r of requests) out.set(r.trackingNumber, error);
      return out;
    }
    const valid = (res.body as { validTrackingNumbers?: unknown } | null)?.validTrackingNumbers;
    const subscribed = new Set(Array.isArray(valid) ? valid.map((n) => normalized(String(n))) : []);
    for (const r of requests) {
      out.set(
        r.trackingNumber,
        subscribed.has(normalized(r.trackingNumber)) ? null : refused(r.trackingNumber),
      );
    }
    return out;
  },
};
