import type { ProviderCallContext } from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';
import { upsAuthorized, upsUrl } from './ups-auth';
import { upsTransId, UPS_LOCALE } from './ups-adapter';
import { UPS_TRANSACTION_SRC, upsWebhookSecret } from './ups-settings';

/**
 * Track Alert standard subscription, v1: the version whose spec we read (the notes mention a
 * v2 with portal-managed credentials, UNCONFIRMED; README.md). One constant to change.
 */
export const UPS_TRACK_ALERT_PATH = '/api/track/v1/subscription/standard/package';
export const UPS_TRACK_ALERT_MAX_NUMBERS = 100;
/** Track Alert only takes 1Z package numbers. */
export const UPS_TRACK_ALERT_NUMBER = /^1Z[0-9A-Z]{16}$/;

export interface UpsSubscriptionOutcome {
  readonly subscribed: string[];
  /** Numbers UPS refused, or that Track Alert does not cover (not 1Z): polling serves them. */
  readonly notSubscribed: string[];
}

/**
 * Subscribes numbers to Track Alert so that UPS pushes their events for 14 days to
 * `receiverUrl` (our `POST /public/tracking_webhooks/ups/{credentialsId}`), authenticated by
 * the credentials' `webhookSecret`. Not the adapter's `register`: UPS numbers are polled like
 * any carrier's, push only makes them fresher (README.md).
 */
export async function subscribeUpsTrackAlert(
  ctx: ProviderCallContext,
  receiverUrl: string,
  numbers: readonly string[],
): Promise<UpsSubscriptionOutcome> {
  const credential = upsWebhookSecret(ctx.credentials);
  if (!credential) {
    throw TrackingProviderError.permanent('ups credentials have no webhookSecret for Track Alert', {
      provider: 'ups',
    });
  }
  const eligible = [...new Set(numbers.map((n) => n.trim().toUpperCase()))].filter((n) =>
    UPS_TRACK_ALERT_NUMBER.test(n),
  );
  const out: UpsSubscriptionOutcome = {
    subscribed: [],
    notSubscribed: numbers.filter((n) => !UPS_TRACK_ALERT_NUMBER.test(n.trim().toUpperCase())),
  };
  for (let i = 0; i < eligible.length; i += UPS_TRACK_ALERT_MAX_NUMBERS) {
    const chunk = eligible.slice(i, i + UPS_TRACK_ALERT_MAX_NUMBERS);
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
        trackingNumberList: chunk,
        destination: { url: receiverUrl, credentialType: 'Bearer', credential },
      },
    }));
    const body = (res.body ?? {}) as { validTrackingNumbers?: unknown };
    const valid = new Set(
      Array.isArray(body.validTrackingNumbers) ? body.validTrackingNumbers.map(String) : [],
    );
    for (const n of chunk) (valid.has(n) ? out.subscribed : out.notSubscribed).push(n);
  }
  return out;
}
