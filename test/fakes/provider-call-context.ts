import { ThrottlerStorageService } from '@nestjs/throttler';
import { FetchProviderHttp } from '../../src/tracking/providers/remote/fetch-provider-http';
import type {
  ProviderCallContext,
  ProviderCredentials,
  ProviderTokenCache,
} from '../../src/tracking/providers/remote/provider-adapter';
import { ProviderRateLimiter } from '../../src/tracking/providers/remote/provider-rate-limiter';

/**
 * A call context for adapter specs against a fake: the application's own FetchProviderHttp
 * (timeouts, 429/Retry-After, 401/403, error classification) with its budget kept in memory
 * instead of PostgreSQL, and tokens kept in memory.
 */
export function fakeProviderContext(
  credentials: ProviderCredentials,
  options: { requestsPerSecond?: number; timeoutMs?: number; now?: Date } = {},
): ProviderCallContext {
  const http = new FetchProviderHttp({
    provider: credentials.type,
    budgetKey: credentials.id,
    requestsPerSecond: options.requestsPerSecond ?? 1000,
    timeoutMs: options.timeoutMs ?? 5000,
    limiter: new ProviderRateLimiter(new ThrottlerStorageService()),
  });
  return { credentials, http, tokens: memoryTokenCache(), now: options.now ?? new Date() };
}

/** OAuth tokens kept in memory for the life of a spec. */
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
