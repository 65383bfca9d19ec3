import type { ProviderCallContext } from '../remote/provider-adapter';
import { upsAuthorized, upsUrl } from './ups-auth';
import { upsTransId, UPS_LOCALE } from './ups-adapter';
import { upsSettings } from './ups-settings';

/** Track Alert v1 standard subscription (the path the official spec documents). */
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
 * Subscribes numbers to Track Alert so UPS pushes their events (for 14 days) to
 * `trackAlertUrl` with our `webhookCredential`. Not part of the adapter's `register`: UPS
 * numbers are polled like any carrier's, and push only makes them fresher (README.md).
 */
export async function subscribeUpsTrackAlert(
  ctx: ProviderCallContext,
  numbers: readonly string[],
): Promise<UpsSubscriptionOutcome> {
  const settings = upsSettings(ctx.credentials);
  const eligible = numbers.filter((n) => UPS_TRACK_ALERT_NUMBER.test(n));
  const out: UpsSubscriptionOutcome = {
    subscribed: [],
    notSubscribed: numbers.filter((n) => !UPS_TRACK_ALERT_NUMBER.test(n)),
  };
  if (!settings.trackAlertUrl || !settings.webhookCredential) {
    out.notSubscribed.push(...eligible);
    return out;
  }
  for (let i = 0; i < eligible.length; i += UPS_TRACK_ALERT_MAX_NUMBERS) {
    const chunk = eligible.slice(i, i + UPS_TRACK_ALERT_MAX_NUMBERS);
    const res = await upsAuthorized(ctx, (token) => ({
      method: 'POST',
      url: upsUrl(ctx, UPS_TRACK_ALERT_PATH),
      headers: {
        Authorization: `Bearer ${token}`,
        transId: upsTransId(),
        transactionSrc: settings.transactionSrc,
      },
      json: {
        locale: UPS_LOCALE,
        countryCode: 'US',
        trackingNumberList: chunk,
        destination: {
          url: settings.trackAlertUrl,
          credentialType: 'Bearer',
          credential: settings.webhookCredential,
        },
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
