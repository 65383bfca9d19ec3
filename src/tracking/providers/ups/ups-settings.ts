import { randomUUID } from 'node:crypto';
import { ProviderCredentialsRejected, type ProviderCredentials } from '../remote/provider-adapter';

/**
 * What the UPS adapter reads from a `ups` credentials record (src/credentials/credential-types.ts):
 * parameters `clientId`, `merchantId`; secrets `clientSecret`, `webhookSecret`.
 */
export interface UpsSettings {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Optional `x-merchant-id` of the token request (the 6-character shipper account). */
  readonly merchantId: string | null;
}

/** The `transactionSrc` header UPS requires on every Track call: names the calling application. */
export const UPS_TRANSACTION_SRC = 'shipment-tracking';
/** Only the English locale is asked for (status phrases are read in English). */
export const UPS_LOCALE = 'en_US';

/** UPS wants a unique `transId` per request (32 characters at most in practice). */
export function upsTransId(): string {
  return randomUUID().replace(/-/g, '');
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Credentials without a client id or secret cannot work: they are reported as rejected. */
export function upsSettings(credentials: ProviderCredentials): UpsSettings {
  const { secrets, parameters } = credentials;
  const clientId = text(parameters.clientId) ?? text(secrets.clientId);
  const clientSecret = text(secrets.clientSecret);
  if (!clientId || !clientSecret) {
    throw new ProviderCredentialsRejected(
      'ups',
      401,
      'ups credentials need a clientId parameter and a clientSecret',
    );
  }
  return { clientId, clientSecret, merchantId: text(parameters.merchantId) };
}

/**
 * Track Alert: the client secret UPS uses at our token URL before pushing (set in the UPS
 * portal's webhook credentials); without it no number is subscribed and no push accepted.
 */
export function upsWebhookSecret(credentials: ProviderCredentials): string | null {
  return text(credentials.secrets.webhookSecret);
}
