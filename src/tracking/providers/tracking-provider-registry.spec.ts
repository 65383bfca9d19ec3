import { NoInfoTrackingProvider } from './no-info-tracking-provider';
import { SandboxTrackingProvider } from './sandbox';
import type { TrackingProvider, TrackingResult } from './tracking-provider';
import { TrackingProviderError } from './tracking-provider-error';
import { TrackingProviderRegistry } from './tracking-provider-registry';

const NOW = new Date('2025-06-01T12:00:00Z');

function fakeProvider(name: string, carrier: string): TrackingProvider {
  return {
    name,
    supports: (carrierCode) => carrierCode === carrier,
    track: (): Promise<TrackingResult> =>
      Promise.resolve({ checkpoints: [], facts: { destinationCarrier: name } }),
  };
}

describe('TrackingProviderRegistry', () => {
  const ups = fakeProvider('ups-adapter', 'ups');
  const upsBackup = fakeProvider('ups-backup', 'ups');
  const registry = new TrackingProviderRegistry([new SandboxTrackingProvider(), ups, upsBackup]);

  it('picks the first provider that supports the carrier', () => {
    expect(registry.providerFor('ups', '1Z999AA10123456784')).toBe(ups);
    expect(registry.providerFor('tm-test', 'TM200XTM').name).toBe('sandbox');
  });

  it('falls back to the no-info provider', () => {
    expect(registry.providerFor('dhl', '123').name).toBe('no-info');
    expect(registry.providerFor(null, '123').name).toBe('no-info');
    expect(registry.names).toEqual(['sandbox', 'ups-adapter', 'ups-backup', 'no-info']);
  });

  it('tracks through the chosen provider', async () => {
    const result = await registry.track('1Z999AA10123456784', 'ups', { now: NOW });
    expect(result.facts.destinationCarrier).toBe('ups-adapter');
    expect(await registry.track('123', null, { now: NOW })).toEqual({ checkpoints: [], facts: {} });
  });

  it('accepts another fallback', () => {
    const custom = new TrackingProviderRegistry([], ups);
    expect(custom.providerFor('anything', '1')).toBe(ups);
  });
});

describe('NoInfoTrackingProvider', () => {
  it('supports everything and knows nothing', async () => {
    const provider = new NoInfoTrackingProvider();
    expect(provider.supports()).toBe(true);
    expect(await provider.track('123', 'usps', { now: NOW })).toEqual({
      checkpoints: [],
      facts: {},
    });
  });
});

describe('TrackingProviderError', () => {
  it('tells transient from permanent failures', () => {
    const cause = new Error('socket hang up');
    const transient = TrackingProviderError.transient('carrier timeout', {
      provider: 'ups-adapter',
      retryAfterMs: 30_000,
      cause,
    });
    expect(transient).toBeInstanceOf(Error);
    expect(transient.name).toBe('TrackingProviderError');
    expect(transient.transient).toBe(true);
    expect(transient.provider).toBe('ups-adapter');
    expect(transient.retryAfterMs).toBe(30_000);
    expect(transient.cause).toBe(cause);
    const permanent = TrackingProviderError.permanent('number rejected');
    expect(permanent.kind).toBe('permanent');
    expect(permanent.provider).toBeNull();
    expect(TrackingProviderError.isRetryable(transient)).toBe(true);
    expect(TrackingProviderError.isRetryable(permanent)).toBe(false);
    expect(TrackingProviderError.isRetryable(new TypeError('bug'))).toBe(true);
  });
});
