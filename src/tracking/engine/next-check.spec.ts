import fc from 'fast-check';
import { isFinal, TRACKING_STATUS_CODES, type TrackingStatusCode } from '../statuses';
import { nextCheckAt } from './next-check';

const HOUR = 3_600_000;
const NOW = new Date('2025-06-01T12:00:00Z');

function hoursUntil(status: TrackingStatusCode | null, ageHours = 1, attempt?: number) {
  const lastChange = new Date(NOW.getTime() - ageHours * HOUR);
  const next = nextCheckAt(status, lastChange, NOW, attempt);
  return next === null ? null : (next.getTime() - NOW.getTime()) / HOUR;
}

describe('nextCheckAt', () => {
  it.each([
    ['delivery_in_progress', 1],
    ['unsuccessful_delivery', 2],
    ['in_transit', 3],
    ['available_for_pickup', 6],
    ['transit_limit_exceeded', 12],
  ] as const)('checks %s after %i h', (status, hours) => {
    expect(hoursUntil(status)).toBe(hours);
  });

  it.each(['delivered', 'cancelled', 'return_to_sender', 'error', 'expired'] as const)(
    'never checks a final %s shipment again',
    (status) => {
      expect(hoursUntil(status)).toBeNull();
    },
  );

  it('never checks a shipment without a status (no tracking number)', () => {
    expect(hoursUntil(null)).toBeNull();
  });

  it('backs off pre-shipment checks by attempt: 6 h, 12 h, then 24 h', () => {
    expect([0, 1, 2, 3, 10].map((a) => hoursUntil('no_info', 1, a))).toEqual([6, 12, 24, 24, 24]);
    expect(hoursUntil('pre_transit', 1, 1)).toBe(12);
  });

  it('backs off pre-shipment checks by age without an attempt count', () => {
    expect(hoursUntil('no_info', 2)).toBe(6);
    expect(hoursUntil('no_info', 30)).toBe(12);
    expect(hoursUntil('pre_transit', 24 * 5)).toBe(24);
  });

  it('checks stalled active parcels half as often', () => {
    expect(hoursUntil('in_transit', 24 * 8)).toBe(6);
    expect(hoursUntil('transit_limit_exceeded', 24 * 8)).toBe(24);
  });

  it('treats an unknown last change as just now', () => {
    expect(nextCheckAt('no_info', null, NOW)).toEqual(new Date(NOW.getTime() + 6 * HOUR));
  });

  it('always answers within (now, now + 24 h] for non-final statuses', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TRACKING_STATUS_CODES),
        fc.integer({ min: -1000, max: 100_000 }),
        fc.option(fc.integer({ min: -5, max: 1000 }), { nil: undefined }),
        (status, ageHours, attempt) => {
          const next = nextCheckAt(status, new Date(NOW.getTime() - ageHours * HOUR), NOW, attempt);
          if (isFinal(status)) {
            expect(next).toBeNull();
          } else {
            expect(next!.getTime()).toBeGreaterThan(NOW.getTime());
            expect(next!.getTime()).toBeLessThanOrEqual(NOW.getTime() + 24 * HOUR);
          }
        },
      ),
    );
  });
});
