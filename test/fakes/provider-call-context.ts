import { ThrottlerStorageService } from '@nestjs/throttler';
import { FetchProviderHttp } from '../../src/tracking/providers/remote/fetch-provider-http';
import type {
  ProviderCallContext,
  ProviderCredentials,
} from '../../src/tracking/providers/remote/provider-adapter';
import { MemoryProviderTokenCache } from '../../src/tracking/providers/remote/provider-token-cache';
import { ProviderRateLimiter } from '../../src/tracking/providers/remote/provider-rate-limiter';

/**
 * A call context for adapter specs against a fake: the application's own FetchProviderHttp
 * (timeouts, 429/Retry-After, 401/403, error classification) with its budget kept in memory
 * instead of PostgreSQL, and the in-process token cache.
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
  return {
    credentials,
    http,
    tokens: new MemoryProviderTokenCache(),
    now: options.now ?? new Date(),
  };
}
