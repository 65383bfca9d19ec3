import {
  ProviderCredentialsRejected,
  type ProviderCallContext,
  type ProviderCredentials,
  type ProviderHttp,
  type ProviderHttpRequest,
  type ProviderHttpResponse,
  type ProviderTokenCache,
  type ProviderType,
} from '../../src/tracking/providers/remote/provider-adapter';
import { TrackingProviderError } from '../../src/tracking/providers/tracking-provider-error';

/**
 * A small real `ProviderHttp` for adapter specs against the fakes (fetch, no rate limiter):
 * the same status contract as the application's (429/5xx/network -> transient with the
 * provider's Retry-After or X-RateLimit-Reset, 401/403 -> ProviderCredentialsRejected, other
 * non-2xx not accepted -> permanent). It refuses any host but loopback.
 */
export function loopbackProviderHttp(
  provider: ProviderType,
  options: { timeoutMs?: number; now?: () => Date } = {},
): ProviderHttp & { readonly sent: ProviderHttpRequest[] } {
  const sent: ProviderHttpRequest[] = [];
  const now = options.now ?? (() => new Date());
  return {
    sent,
    async request(req: ProviderHttpRequest): Promise<ProviderHttpResponse> {
      sent.push(req);
      const url = new URL(req.url);
      if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
        throw new Error(`test ProviderHttp refuses non-loopback ${url.host}`);
      }
      for (const [k, v] of Object.entries(req.query ?? {})) {
        if (v !== undefined) url.searchParams.append(k, String(v));
      }
      const headers: Record<string, string> = { ...req.headers };
      let body: string | undefined;
      if (req.json !== undefined) {
        body = JSON.stringify(req.json);
        headers['Content-Type'] ??= 'application/json';
      } else if (req.form !== undefined) {
        body = new URLSearchParams(req.form).toString();
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
      }
      let res: Response;
      try {
        res = await fetch(url, {
          method: req.method,
          headers,
          body,
          signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
        });
      } catch (error) {
        throw TrackingProviderError.transient(`${provider} unreachable`, {
          provider,
          cause: error,
        });
      }
      const text = await res.text();
      const responseHeaders: Record<string, string> = {};
      res.headers.forEach((v, k) => (responseHeaders[k.toLowerCase()] = v));
      let parsed: unknown = text;
      if (/json/i.test(responseHeaders['content-type'] ?? '') && text !== '') {
        try {
          parsed = JSON.parse(text) as unknown;
        } catch {
          parsed = text;
        }
      }
      const response = { status: res.status, headers: responseHeaders, body: parsed };
      if (res.status < 300 || req.acceptStatuses?.includes(res.status)) return response;
      if (res.status === 401 || res.status === 403) {
        throw new ProviderCredentialsRejected(provider, res.status);
      }
      if (res.status === 429 || res.status >= 500) {
        throw TrackingProviderError.transient(`${provider} answered HTTP ${res.status}`, {
          provider,
          retryAfterMs: retryAfterMs(responseHeaders, now()) ?? undefined,
        });
      }
      throw TrackingProviderError.permanent(`${provider} answered HTTP ${res.status}`, {
        provider,
      });
    },
  };
}

function retryAfterMs(headers: Record<string, string>, now: Date): number | null {
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.max(0, at - now.getTime());
  }
  const reset = Number(headers['x-ratelimit-reset']);
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - now.getTime()) : null;
}

/** Tokens kept in memory for the life of a spec. */
export function memoryTokenCache(): ProviderTokenCache {
  const tokens = new Map<string, string>();
  return {
    async get(id, fetchToken) {
      const cached = tokens.get(id);
      if (cached !== undefined) return cached;
      const { accessToken } = await fetchToken();
      tokens.set(id, accessToken);
      return accessToken;
    },
    invalidate: (id) => void tokens.delete(id),
  };
}

/** A call context for `credentials` through `http` (default: a fresh loopback ProviderHttp). */
export function providerContext(
  credentials: ProviderCredentials,
  http: ProviderHttp = loopbackProviderHttp(credentials.type),
  now = new Date(),
): ProviderCallContext {
  return { credentials, http, tokens: memoryTokenCache(), now };
}
