import fc from 'fast-check';
import { isFinal, TRACKING_STATUS_CODES, type TrackingStatusCode } from '../statuses';
import { computeTracking, DAY_MS, type ComputeTrackingInput } from './status-engine';
import type { EngineCheckpoint } from './tracking-input';

const MINUTE = 60_000;
const T0 = Date.parse('2025-01-01T00:00:00Z');
const RUNS = { numRuns: 300 };

const statusArb = fc.constantFrom<TrackingStatusCode>(...TRACKING_STATUS_CODES);
/** Offsets in minutes around createdAt: from 40 days before to 200 days after. */
const offsetArb = fc.integer({ min: -40 * 24 * 60, max: 200 * 24 * 60 });

const checkpointArb: fc.Arbitrary<EngineCheckpoint> = fc.record({
  checkpointDate: offsetArb.map((m) => new Date(T0 + m * MINUTE)),
  status: statusArb,
  countryIso2: fc.constantFrom(null, 'US', 'DE', 'CN'),
});

const inputArb = fc.record({
  trackingNumber: fc.constantFrom<string | null>(null, 'TM102ABCTM', '1Z999AA10123456784'),
  checkpoints: fc.array(checkpointArb, { maxLength: 8 }),
  transitLimitDays: fc.integer({ min: 1, max: 90 }),
});

function compute(
  base: {
    trackingNumber: string | null;
    checkpoints: EngineCheckpoint[];
    transitLimitDays: number;
  },
  nowMinutes: number,
  previous: ComputeTrackingInput['previous'] = null,
) {
  return computeTracking({
    createdAt: new Date(T0),
    trackingNumber: base.trackingNumber,
    originCarrier: 'tm-test',
    checkpoints: base.checkpoints,
    facts: null,
    previous,
    now: new Date(T0 + nowMinutes * MINUTE),
    limits: { expiredAfterDays: 30, transitLimitDays: base.transitLimitDays },
  });
}

describe('computeTracking properties', () => {
  it('never gives negative or fractional counts', () => {
    fc.assert(
      fc.property(inputArb, offsetArb, (input, now) => {
        const r = compute(input, now);
        expect(Number.isInteger(r.daysInIdle)).toBe(true);
        expect(r.daysInIdle).toBeGreaterThanOrEqual(0);
        if (r.daysInTransit !== null) {
          expect(Number.isInteger(r.daysInTransit)).toBe(true);
          expect(r.daysInTransit).toBeGreaterThanOrEqual(0);
        }
      }),
      RUNS,
    );
  });

  it('never decreases a count as time advances', () => {
    fc.assert(
      fc.property(inputArb, offsetArb, fc.nat(100 * 24 * 60), (input, now, later) => {
        const a = compute(input, now);
        const b = compute(input, now + later);
        expect(b.daysInIdle!).toBeGreaterThanOrEqual(a.daysInIdle!);
        expect(b.daysInTransit === null).toBe(a.daysInTransit === null);
        if (a.daysInTransit !== null)
          expect(b.daysInTransit!).toBeGreaterThanOrEqual(a.daysInTransit);
      }),
      RUNS,
    );
  });

  it('freezes everything once a final status is reached', () => {
    fc.assert(
      fc.property(inputArb, offsetArb, fc.nat(300 * 24 * 60), (input, now, later) => {
        const a = compute(input, now);
        fc.pre(isFinal(a.trackingStatus));
        const b = compute(input, now + later);
        expect(b.trackingStatus).toBe(a.trackingStatus);
        expect(b.daysInTransit).toBe(a.daysInTransit);
        expect(b.daysInIdle).toBe(a.daysInIdle);
        expect(b.lastStatusUpdate).toEqual(a.lastStatusUpdate);
      }),
      RUNS,
    );
  });

  it('does not depend on the order of the checkpoints', () => {
    fc.assert(
      fc.property(
        inputArb.chain((input) =>
          fc.tuple(
            fc.constant(input),
            fc.shuffledSubarray(input.checkpoints, {
              minLength: input.checkpoints.length,
            }),
          ),
        ),
        offsetArb,
        ([input, shuffled], now) => {
          expect(compute({ ...input, checkpoints: shuffled }, now)).toEqual(compute(input, now));
        },
      ),
      RUNS,
    );
  });

  it('expires exactly 30 days after creation when no information ever came', () => {
    fc.assert(
      fc.property(offsetArb, (now) => {
        const r = compute({ trackingNumber: 'X1', checkpoints: [], transitLimitDays: 60 }, now);
        const expected = now * MINUTE >= 30 * DAY_MS ? 'expired' : 'no_info';
        expect(r.trackingStatus).toBe(expected);
      }),
      RUNS,
    );
  });

  it('flags in_transit exactly when the transit limit has passed since shippedAt', () => {
    fc.assert(
      fc.property(
        fc.array(offsetArb, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 90 }),
        offsetArb,
        (offsets, limit, now) => {
          const checkpoints = offsets.map((m) => ({
            checkpointDate: new Date(T0 + m * MINUTE),
            status: 'in_transit' as const,
          }));
          const r = compute({ trackingNumber: 'X1', checkpoints, transitLimitDays: limit }, now);
          const shipped = Math.min(...offsets) * MINUTE;
          const exceeded = now * MINUTE - shipped >= limit * DAY_MS;
          expect(r.trackingStatus).toBe(exceeded ? 'transit_limit_exceeded' : 'in_transit');
          expect(r.shippedAt).toEqual(new Date(T0 + shipped));
        },
      ),
      RUNS,
    );
  });

  it('changes lastStatusUpdate exactly when trackingStatus changes as checkpoints arrive', () => {
    const arrivalsArb = fc.array(
      fc.record({ gapMinutes: fc.integer({ min: 1, max: 20 * 24 * 60 }), status: statusArb }),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(arrivalsArb, fc.integer({ min: 1, max: 90 }), (arrivals, limit) => {
        const checkpoints: EngineCheckpoint[] = [];
        let clock = 0;
        let previous: ComputeTrackingInput['previous'] = null;
        for (const arrival of [null, ...arrivals]) {
          if (arrival) {
            clock += arrival.gapMinutes;
            checkpoints.push({
              checkpointDate: new Date(T0 + clock * MINUTE),
              status: arrival.status,
            });
          }
          clock += 1; // the refresh that sees it runs a minute later
          const r = compute(
            { trackingNumber: 'X1', checkpoints, transitLimitDays: limit },
            clock,
            previous,
          );
          if (previous) {
            const statusChanged = r.trackingStatus !== previous.trackingStatus;
            const instantChanged =
              r.lastStatusUpdate?.getTime() !== previous.lastStatusUpdate?.getTime();
            expect(instantChanged).toBe(statusChanged);
          }
          if (r.lastStatusUpdate) {
            expect(r.lastStatusUpdate.getTime()).toBeLessThanOrEqual(T0 + clock * MINUTE);
          }
          previous = { trackingStatus: r.trackingStatus, lastStatusUpdate: r.lastStatusUpdate };
        }
      }),
      RUNS,
    );
  });
});
