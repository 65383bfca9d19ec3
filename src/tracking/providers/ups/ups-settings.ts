import type { ProviderCredentials } from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';

/** What the UPS adapter reads from a `ups` credentials record (the one place naming fields). */
export interface UpsSettings {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Optional `x-merchant-id` of the token request (the 6-character shipper account). */
  readonly merchantId: string | null;
  /** The `transactionSrc` header UPS requires on every Track call. */
  readonly transactionSrc: string;
  /** Track Alert: the opaque string UPS sends back in the `credential` header of each push. */
  readonly webhookCredential: string | null;
  /** Track Alert: our receiver URL given to UPS when subscribing; no subscription without it. */
  readonly trackAlertUrl: string | null;
}

export const UPS_DEFAULT_TRANSACTION_SRC = 'shipment-tracking';

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export function upsSettings(credentials: ProviderCredentials): UpsSettings {
  const { secrets, parameters } = credentials;
  const clientId = text(secrets.clientId) ?? text(parameters.clientId);
  const clientSecret = text(secrets.clientSecret);
  if (!clientId || !clientSecret) {
    throw TrackingProviderError.permanent('UPS credentials need a clientId and a clientSecret', {
      provider: 'ups',
    });
  }
  return {
    clientId,
    clientSecret,
    merchantId: text(parameters.merchantId),
    transactionSrc: text(parameters.transactionSrc) ?? UPS_DEFAULT_TRANSACTION_SRC,
    webhookCredential: text(secrets.webhookCredential),
    trackAlertUrl: text(parameters.trackAlertUrl),
  };
}
