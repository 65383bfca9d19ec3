import { MAX_RETRY_DELAY_MS, retryDelayMs } from './retry-backoff';

describe('retryDelayMs', () => {
  it('doubles from the base after each failed attempt', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 30))).toEqual([
      30_000, 60_000, 120_000, 240_000,
    ]);
  });

  it('never waits longer than six hours', () => {
    expect(retryDelayMs(40, 30)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(1, 86400)).toBe(MAX_RETRY_DELAY_MS);
  });
});
