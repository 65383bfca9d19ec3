import type { ProviderCredentials } from '../remote/provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';

/** What the DHL adapter reads from a `dhl` credentials record (the one place naming fields). */
export interface DhlSettings {
  /** Consumer key of the app on developer.dhl.com, sent as `DHL-API-Key`. */
  readonly apiKey: string;
}

export function dhlSettings(credentials: ProviderCredentials): DhlSettings {
  const apiKey = credentials.secrets.apiKey;
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw TrackingProviderError.permanent('DHL credentials need an apiKey', { provider: 'dhl' });
  }
  return { apiKey: apiKey.trim() };
}
