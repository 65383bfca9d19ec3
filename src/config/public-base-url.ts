import type { AppConfig } from './app-config';

/**
 * The service's own base URL for what it publishes (links in mail, the OpenAPI `servers`):
 * PUBLIC_URL, else the local server. Never the request's Host.
 */
export function publicBaseUrl(config: Pick<AppConfig, 'publicUrl' | 'port'>): string {
  return (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
}
