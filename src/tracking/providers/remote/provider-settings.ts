import { carrierCodeList, credentialType } from '../../../credentials/credential-types';
import type { ProviderAdapter, ProviderCredentials } from './provider-adapter';
import type { RoutableCredentials } from './provider-routing';

export type ProviderSetting = string | number | boolean;

/**
 * Splits flat settings (TRACKING_PROVIDER_CREDENTIALS, the CLI's --set) into the parameters
 * and secrets the provider's credentials type names.
 */
export function splitProviderSettings(
  type: string,
  settings: Readonly<Record<string, ProviderSetting>>,
): { parameters: Record<string, ProviderSetting>; secrets: Record<string, string> } {
  const secretNames = credentialType(type)?.secrets ?? [];
  const parameters: Record<string, ProviderSetting> = {};
  const secrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (secretNames.includes(key)) secrets[key] = String(value);
    else parameters[key] = value;
  }
  return { parameters, secrets };
}

/** Credentials as routing and adapters use them: `baseUrl` defaulted, routing settings read. */
export function routableCredentials(
  id: string,
  adapter: ProviderAdapter,
  parameters: Readonly<Record<string, ProviderSetting>>,
  secrets: Readonly<Record<string, string>>,
  createdAt: Date,
): RoutableCredentials {
  const baseUrl =
    typeof parameters.baseUrl === 'string' && parameters.baseUrl !== ''
      ? parameters.baseUrl.replace(/\/+$/, '')
      : adapter.defaultBaseUrl;
  const credentials: ProviderCredentials = {
    id,
    type: adapter.type,
    baseUrl,
    parameters,
    secrets,
  };
  return {
    credentials,
    adapter,
    isDefault: parameters.isDefault === true || parameters.isDefault === 'true',
    carriers: typeof parameters.carriers === 'string' ? carrierCodeList(parameters.carriers) : [],
    createdAt,
  };
}
