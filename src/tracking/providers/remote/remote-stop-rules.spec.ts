import { TrackingProviderError } from '../tracking-provider-error';
import { ProviderCredentialsRejected } from './provider-adapter';
import { nextStopAttempt, STOP_MAX_ATTEMPTS, STOP_RETRY_BASE_MS } from './remote-stop-rules';

const NOW = new Date('2026-03-10T12:00:00Z');
const MIN = 60_000;
const after = (attempts: number, error: unknown) => {
  const at = nextStopAttempt(attempts, error, NOW);
  return at === null ? null : (at.getTime() - NOW.getTime()) / MIN;
};

describe('nextStopAttempt', () => {
  const outage = TrackingProviderError.transient('ship24 answered HTTP 503');

  it('backs off 15, 30, 60, 120, 240 minutes, then 6 hours, giving up after 12 attempts', () => {
    expect(STOP_RETRY_BASE_MS).toBe(15 * MIN);
    expect(STOP_MAX_ATTEMPTS).toBe(12);
    const waits = Array.from({ length: 13 }, (_, i) => after(i + 1, outage));
    expect(waits).toEqual([15, 30, 60, 120, 240, 360, 360, 360, 360, 360, 360, null, null]);
    // About 44 hours from the first attempt to the last.
    expect(waits.reduce((sum: number, w) => sum + (w ?? 0), 0) / 60).toBeCloseTo(43.75);
  });

  it('waits for a Retry-After longer than the backoff, never less than the backoff', () => {
    const limited = (seconds: number) =>
      TrackingProviderError.transient('HTTP 429', { retryAfterMs: seconds * 1000 });
    expect(after(1, limited(3600))).toBe(60);
    expect(after(1, limited(90))).toBe(15);
    expect(after(12, limited(90))).toBeNull();
    expect(after(8, limited(9 * 3600))).toBe(9 * 60);
  });

  it('gives up at once on a permanent error', () => {
    const unknown = TrackingProviderError.permanent('ship24 has no tracker of RR123456785CN');
    expect(after(1, unknown)).toBeNull();
  });

  it('retries refused credentials (they may be fixed) and unexpected errors', () => {
    expect(after(1, new ProviderCredentialsRejected('ship24', 401))).toBe(15);
    expect(after(2, new Error('socket hang up'))).toBe(30);
  });
});
