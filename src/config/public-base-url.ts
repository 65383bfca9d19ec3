import type { AppConfig } from './app-config';

/**
 * The service's own base URL for what it publishes (links in mail, the OpenAPI `servers`):
 * PUBLIC_URL, else the local server. Never the request's Host.
 */
export function publicBaseUrl(config: Pick<AppConfig, 'publicUrl' | 'port'>): string {
  return (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
}

/**
 * The base of absolute URLs answered to the client that asked (the Hydra documentation's
 * `Link` header and vocabulary): PUBLIC_URL, else the request's origin (`scheme://host`, the
 * scheme as TRUST_PROXY lets Express read it). It goes back to that client only, so its own
 * Host header may name it.
 */
export function requestBaseUrl(config: Pick<AppConfig, 'publicUrl'>, origin: string): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  // HTTP/1.0 without a Host header.
  return origin.endsWith('://') ? `${origin}localhost` : origin;
}
