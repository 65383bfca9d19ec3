import type { AppConfig } from '../config/app-config';

/** Base URL of links in mail: PUBLIC_URL, else the local server. Never the request's Host. */
export function publicBaseUrl(config: AppConfig): string {
  return (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
}

export function link(config: AppConfig, path: string, query: Record<string, string> = {}): string {
  const url = new URL(publicBaseUrl(config) + path);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
}
