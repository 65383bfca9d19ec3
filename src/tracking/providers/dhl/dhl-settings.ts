import { ProviderCredentialsRejected, type ProviderCredentials } from '../remote/provider-adapter';

/** What the DHL adapter reads from a `dhl` credentials record (secret `apiKey`). */
export interface DhlSettings {
  /** Consumer key of the app on developer.dhl.com, sent as `DHL-API-Key`. */
  readonly apiKey: string;
}

/** Credentials without an API key cannot work: they are reported as rejected. */
export function dhlSettings(credentials: ProviderCredentials): DhlSettings {
  const apiKey = credentials.secrets.apiKey;
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new ProviderCredentialsRejected('dhl', 401, 'dhl credentials have no apiKey');
  }
  return { apiKey: apiKey.trim() };
}
