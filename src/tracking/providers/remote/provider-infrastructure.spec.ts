import { ThrottlerStorageService } from '@nestjs/throttler';
import { TrackingProviderError } from '../tracking-provider-error';
import { retryAfter } from './fetch-provider-http';
import { ProviderRateLimiter } from './provider-rate-limiter';
import { MemoryProviderTokenCache } from './provider-token-cache';

describe('retryAfter', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  it('reads delay-seconds and HTTP dates', () => {
    expect(retryAfter('120', now)).toBe(120_000);
    expect(retryAfter('Tue, 10 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfter('Tue, 10 Mar 2026 11:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent or invalid values', () => {
    expect(retryAfter(null, now)).toBeNull();
    expect(retryAfter('soon', now)).toBeNull();
  });
});

describe('MemoryProviderTokenCache', () => {
  it('reuses a token until shortly before it expires, then fetches a new one', async () => {
    let t = 0;
    const cache = new MemoryProviderTokenCache(() => t);
    let fetched = 0;
    const fetch = () =>
      Promise.resolve({ accessToken: `token-${++fetched}`, expiresInSeconds: 3600 });
    expect(await cache.get('c', fetch)).toBe('token-1');
    t = 3000_000; // 50 min: still valid
    expect(await cache.get('c', fetch)).toBe('token-1');
    t = 3300_000; // 55 min: within the last 10%, renewed before expiry
    expect(await cache.get('c', fetch)).toBe('token-2');
    expect(await cache.get('other', fetch)).toBe('token-3');
  });

  it('shares one fetch among concurrent callers and drops refused tokens', async () => {
    const cache = new MemoryProviderTokenCache(() => 0);
    let fetched = 0;
    const fetch = async () => ({ accessToken: `token-${++fetched}`, expiresInSeconds: 3600 });
    const tokens = await Promise.all([cache.get('c', fetch), cache.get('c', fetch)]);
    expect(tokens).toEqual(['token-1', 'token-1']);
    cache.invalidate('c');
    expect(await cache.get('c', fetch)).toBe('token-2');
  });

  it('does not cache a failed fetch', async () => {
    const cache = new MemoryProviderTokenCache(() => 0);
    await expect(cache.get('c', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(
      await cache.get('c', () => Promise.resolve({ accessToken: 'ok', expiresInSeconds: 60 })),
    ).toBe('ok');
  });
});

describe('ProviderRateLimiter', () => {
  it('lets `perSecond` calls through, then waits for a slot', async () => {
    const storage = new ThrottlerStorageService();
    const waits: number[] = [];
    const limiter = new ProviderRateLimiter(storage, async (ms) => {
      waits.push(ms);
      await new Promise((r) => setTimeout(r, ms));
    });
    for (let i = 0; i < 4; i++) await limiter.acquire('key', 4, 5000);
    expect(waits).toEqual([]);
    await limiter.acquire('key', 4, 5000);
    expect(waits.length).toBeGreaterThan(0);
    storage.onApplicationShutdown();
  });

  it('gives a transient error with a retry hint when the wait would be too long', async () => {
    const storage = new ThrottlerStorageService();
    const limiter = new ProviderRateLimiter(storage, () => Promise.resolve());
    await limiter.acquire('key', 1, 0);
    const error = await limiter.acquire('key', 1, 0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackingProviderError);
    expect((error as TrackingProviderError).transient).toBe(true);
    expect((error as TrackingProviderError).retryAfterMs).toBeGreaterThan(0);
    storage.onApplicationShutdown();
  });
});
