import { Clock } from './clock';

describe('Clock', () => {
  it('follows the system time by default', () => {
    const before = Date.now();
    const now = new Clock().now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('can be frozen, advanced and reset', () => {
    const clock = new Clock();
    clock.set(new Date('2025-01-01T00:00:00Z'));
    expect(clock.now().toISOString()).toBe('2025-01-01T00:00:00.000Z');
    clock.advance(86_400_000);
    expect(clock.now().toISOString()).toBe('2025-01-02T00:00:00.000Z');
    clock.reset();
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000);
  });

  it('advances a running clock by an offset', () => {
    const clock = new Clock();
    clock.advance(3_600_000);
    expect(clock.now().getTime() - Date.now()).toBeGreaterThan(3_590_000);
  });
});
