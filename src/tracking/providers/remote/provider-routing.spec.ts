import type { ProviderAdapter } from './provider-adapter';
import { mayRouteRemotely, routeShipment, type RoutableCredentials } from './provider-routing';
import { partialBatchToDefer } from './remote-tracking';

const aggregator = { type: '17track', carriers: null } as unknown as ProviderAdapter;
const ups = { type: 'ups', carriers: ['ups'] } as unknown as ProviderAdapter;

function creds(
  id: string,
  adapter: ProviderAdapter,
  options: { isDefault?: boolean; carriers?: string[]; day?: number } = {},
): RoutableCredentials {
  return {
    credentials: { id, type: adapter.type, baseUrl: 'x', parameters: {}, secrets: {} },
    adapter,
    isDefault: options.isDefault ?? false,
    carriers: options.carriers ?? [],
    createdAt: new Date(Date.UTC(2026, 0, options.day ?? 1)),
  };
}

const id = (r: RoutableCredentials | null) => r?.credentials.id ?? null;

describe('routeShipment', () => {
  const instance = creds('instance', aggregator);

  it('keeps the sandbox carrier on the built-in sandbox', () => {
    expect(id(routeShipment('tm-test', [creds('a', aggregator)], instance))).toBeNull();
    // So its team's credentials need not even be read.
    expect(mayRouteRemotely('tm-test')).toBe(false);
    expect(mayRouteRemotely('ups')).toBe(true);
    expect(mayRouteRemotely(null)).toBe(true);
  });

  it('prefers a carrier override, then the default, then the instance provider', () => {
    const team = [
      creds('default', aggregator, { isDefault: true, day: 1 }),
      creds('ups-direct', ups, { carriers: ['ups'], day: 2 }),
    ];
    expect(id(routeShipment('ups', team, instance))).toBe('ups-direct');
    expect(id(routeShipment('fedex', team, instance))).toBe('default');
    expect(id(routeShipment(null, team, instance))).toBe('default');
    expect(id(routeShipment('fedex', [], instance))).toBe('instance');
    expect(id(routeShipment('fedex', [], null))).toBeNull();
  });

  it('uses credentials without a carriers list as the default, the oldest first', () => {
    const team = [creds('newer', aggregator, { day: 5 }), creds('older', aggregator, { day: 2 })];
    expect(id(routeShipment('dhl', team, null))).toBe('older');
    const flagged = [...team, creds('flagged', aggregator, { isDefault: true, day: 9 })];
    expect(id(routeShipment('dhl', flagged, null))).toBe('flagged');
  });

  it('skips providers that cannot track the carrier', () => {
    const team = [creds('ups-only', ups, { isDefault: true })];
    expect(id(routeShipment('fedex', team, instance))).toBe('instance');
    expect(id(routeShipment(null, team, null))).toBeNull();
    expect(id(routeShipment('ups', team, null))).toBe('ups-only');
  });

  it('does not make override-only credentials a default', () => {
    const team = [creds('for-dhl', aggregator, { carriers: ['dhl'] })];
    expect(id(routeShipment('dhl', team, null))).toBe('for-dhl');
    expect(id(routeShipment('ups', team, null))).toBeNull();
  });
});

describe('partialBatchToDefer', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => i);
  const never = () => false;

  it('registers what fits in one batch, or full batches, at once', () => {
    expect(partialBatchToDefer(items(5), 40, never)).toEqual([]);
    expect(partialBatchToDefer(items(40), 40, never)).toEqual([]);
    expect(partialBatchToDefer(items(80), 40, never)).toEqual([]);
  });

  it('defers the partial last batch of a bigger round', () => {
    expect(partialBatchToDefer(items(85), 40, never)).toEqual([80, 81, 82, 83, 84]);
  });

  it('never defers an item twice', () => {
    expect(partialBatchToDefer(items(85), 40, (i) => i >= 82)).toEqual([80, 81]);
  });
});
