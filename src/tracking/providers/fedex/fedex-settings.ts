import type { ProviderCredentials } from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';

/** What the FedEx adapter reads from a `fedex` credentials record (the one place naming fields). */
export interface FedexSettings {
  /** The project's API key, sent as `client_id`. */
  readonly clientId: string;
  /** The project's secret key, sent as `client_secret`. */
  readonly clientSecret: string;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export function fedexSettings(credentials: ProviderCredentials): FedexSettings {
  const { secrets, parameters } = credentials;
  const clientId = text(secrets.clientId) ?? text(parameters.clientId);
  const clientSecret = text(secrets.clientSecret);
  if (!clientId || !clientSecret) {
    throw TrackingProviderError.permanent(
      'FedEx credentials need a clientId (API key) and a clientSecret',
      { provider: 'fedex' },
    );
  }
  return { clientId, clientSecret };
}
