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

  it('backs off 15, 30, 60, 120 minutes, then gives up after the fifth attempt', () => {
    expect(STOP_RETRY_BASE_MS).toBe(15 * MIN);
    expect(STOP_MAX_ATTEMPTS).toBe(5);
    expect([1, 2, 3, 4, 5, 6].map((n) => after(n, outage))).toEqual([15, 30, 60, 120, null, null]);
  });

  it('waits for a Retry-After longer than the backoff, never less than the backoff', () => {
    const limited = (seconds: number) =>
      TrackingProviderError.transient('HTTP 429', { retryAfterMs: seconds * 1000 });
    expect(after(1, limited(3600))).toBe(60);
    expect(after(1, limited(90))).toBe(15);
    expect(after(5, limited(90))).toBeNull();
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
