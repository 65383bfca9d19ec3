import type { AppConfig } from '../config/app-config';
import { publicBaseUrl } from '../config/public-base-url';

export function link(config: AppConfig, path: string, query: Record<string, string> = {}): string {
  const url = new URL(publicBaseUrl(config) + path);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
}
