import { TrackingProviderError } from '../providers';
import { ProviderCredentialsRejected } from '../providers/remote/provider-adapter';
import { TimeoutError } from './concurrency';
import { describeFailure, tenantReason, trackingFailure } from './tracking-failures';

const now = new Date('2026-01-01T00:00:00Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const after = (failure: { retryAt: Date }) => failure.retryAt.getTime() - now.getTime();

describe('trackingFailure', () => {
  it('backs a transient failure off from 15 minutes, doubling with the attempts', () => {
    const error = TrackingProviderError.transient('carrier unavailable');
    expect(after(trackingFailure({ id: 's', tracking_attempts: 0 }, error, now))).toBe(15 * MINUTE);
    expect(after(trackingFailure({ id: 's', tracking_attempts: 2 }, error, now))).toBe(60 * MINUTE);
    expect(trackingFailure({ id: 's', tracking_attempts: 0 }, error, now)).toMatchObject({
      shipmentId: 's',
      transient: true,
      error: 'carrier unavailable',
    });
  });

  it('caps the backoff at a day, however many attempts', () => {
    const error = TrackingProviderError.transient('down');
    expect(after(trackingFailure({ id: 's', tracking_attempts: 40 }, error, now))).toBe(DAY);
  });

  it("follows the provider's Retry-After", () => {
    const error = TrackingProviderError.transient('rate limited', { retryAfterMs: 5_000 });
    expect(after(trackingFailure({ id: 's', tracking_attempts: 3 }, error, now))).toBe(5_000);
  });

  it('waits a day after a permanent failure or refused credentials, not transient', () => {
    const permanent = trackingFailure(
      { id: 's', tracking_attempts: 0 },
      TrackingProviderError.permanent('number rejected'),
      now,
    );
    expect(permanent.transient).toBe(false);
    expect(after(permanent)).toBe(DAY);
    const refused = trackingFailure(
      { id: 's', tracking_attempts: 0 },
      new ProviderCredentialsRejected('dhl', 401),
      now,
    );
    expect(refused).toMatchObject({
      transient: false,
      error: 'dhl rejected the credentials (HTTP 401)',
    });
    expect(after(refused)).toBe(DAY);
  });

  it('retries an unexpected error as transient', () => {
    expect(
      trackingFailure({ id: 's', tracking_attempts: 0 }, new Error('boom'), now),
    ).toMatchObject({ transient: true });
  });
});

describe('tenantReason', () => {
  it("shows our own wording of provider failures and timeouts, never another error's text", () => {
    expect(tenantReason(TrackingProviderError.transient('HTTP 503'))).toBe('HTTP 503');
    expect(tenantReason(new TimeoutError('tracking X timed out'))).toBe('tracking X timed out');
    expect(tenantReason(new Error('secret: hunter2'))).toBe('tracking failed (unexpected error)');
    expect(tenantReason('a string')).toBe('tracking failed (unexpected error)');
  });
});

describe('describeFailure', () => {
  it("adds what the provider's server said, for the operator", () => {
    const error = TrackingProviderError.transient('HTTP 500', { detail: 'stack overflow' });
    expect(describeFailure(error)).toBe('HTTP 500 (provider said: stack overflow)');
    expect(describeFailure(new Error('plain'))).toBe('plain');
    expect(describeFailure(42)).toBe('42');
  });
});
