import { ProviderCredentialsRejected, type ProviderCredentials } from '../remote/provider-adapter';

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

/** Credentials without a client id or secret cannot work: they are reported as rejected. */
export function uspsSettings(credentials: ProviderCredentials): UspsSettings {
  const { secrets, parameters } = credentials;
  const clientId = text(parameters.clientId) ?? text(secrets.clientId);
  const clientSecret = text(secrets.clientSecret);
  if (!clientId || !clientSecret) {
    throw new ProviderCredentialsRejected(
      'usps',
      401,
      'usps credentials need a clientId parameter and a clientSecret',
    );
  }
  return { clientId, clientSecret };
}
