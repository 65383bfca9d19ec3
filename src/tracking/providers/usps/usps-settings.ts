import type { ProviderCredentials } from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';

/** What the USPS adapter reads from a `usps` credentials record (the one place naming fields). */
export interface UspsSettings {
  /** Consumer key of the app on developer.usps.com. */
  readonly clientId: string;
  /** Consumer secret. */
  readonly clientSecret: string;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export function uspsSettings(credentials: ProviderCredentials): UspsSettings {
  const { secrets, parameters } = credentials;
  const clientId = text(secrets.clientId) ?? text(parameters.clientId);
  const clientSecret = text(secrets.clientSecret);
  if (!clientId || !clientSecret) {
    throw TrackingProviderError.permanent('USPS credentials need a clientId and a clientSecret', {
      provider: 'usps',
    });
  }
  return { clientId, clientSecret };
}
