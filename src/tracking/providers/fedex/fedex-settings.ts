import { ProviderCredentialsRejected, type ProviderCredentials } from '../remote/provider-adapter';

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

/** Credentials without a client id or secret cannot work: they are reported as rejected. */
export function fedexSettings(credentials: ProviderCredentials): FedexSettings {
  const { secrets, parameters } = credentials;
  const clientId = text(parameters.clientId) ?? text(secrets.clientId);
  const clientSecret = text(secrets.clientSecret);
  if (!clientId || !clientSecret) {
    throw new ProviderCredentialsRejected(
      'fedex',
      401,
      'fedex credentials need a clientId parameter (API key) and a clientSecret',
    );
  }
  return { clientId, clientSecret };
}
