import fc from 'fast-check';
import { TRACKING_STATUS_CODES, type TrackingStatusCode } from '../../tracking/statuses';
import { bucketOf, DAY_MS } from './buckets';
import { LEVEL_COUNT, laneKeys } from './lanes';
import { predictDelivery, stageWindow } from './predict';
import {
  IN_TRANSIT,
  journeyOf,
  OUT_FOR_DELIVERY,
  STAGE_COUNT,
  type ParcelTimeline,
} from './stages';
import { COVERAGE, MemoryStats, REMAINING, SILENCE, statIndex } from './stats';

const MINUTE = 60_000;
const T0 = Date.parse('2025-01-01T00:00:00Z');
const RUNS = { numRuns: 300 };
const keys = laneKeys({
  carrier: 'dhl',
  originCountry: 'DE',
  destinationCountry: 'FR',
  postcode: '75008',
});

/** Durations from minutes to ~90 days, log-uniform-ish (what transit times look like). */
const durationArb = fc
  .double({ min: Math.log(10 * MINUTE), max: Math.log(90 * DAY_MS), noNaN: true })
  .map(Math.exp);

/** Stats: random histograms at random levels and stages, coverage counts included. */
const statsArb = fc
  .array(
    fc.record({
      level: fc.integer({ min: 0, max: LEVEL_COUNT - 1 }),
      stage: fc.integer({ min: 0, max: STAGE_COUNT - 1 }),
      measure: fc.constantFrom(REMAINING, REMAINING, SILENCE, COVERAGE),
      duration: durationArb,
      n: fc.integer({ min: 1, max: 60 }),
    }),
    { maxLength: 40 },
  )
  .map((entries) => {
    const stats = new MemoryStats();
    for (const e of entries) {
      const bucket = e.measure === COVERAGE ? e.n % 2 : bucketOf(e.duration);
      stats.add(e.level, keys[e.level] ?? '', [statIndex(e.stage, e.measure, bucket)], [e.n]);
    }
    return stats;
  });

const offsetArb = fc.integer({ min: 0, max: 40 * 24 * 60 }).map((m) => m * MINUTE);

const timelineArb: fc.Arbitrary<ParcelTimeline> = fc
  .record({
    checkpoints: fc.array(
      fc.record({
        offset: offsetArb,
        status: fc.constantFrom<TrackingStatusCode>(...TRACKING_STATUS_CODES),
      }),
      { maxLength: 8 },
    ),
    status: fc.constantFrom<TrackingStatusCode | null>(null, ...TRACKING_STATUS_CODES),
  })
  .map(({ checkpoints, status }) => ({
    createdAt: new Date(T0),
    status,
    checkpoints: checkpoints.map((c) => ({ at: new Date(T0 + c.offset), status: c.status })),
  }));

describe('delivery window properties', () => {
  it('earliest ≤ likely ≤ latest, never in the past, for every parcel on its way', () => {
    fc.assert(
      fc.property(statsArb, timelineArb, offsetArb, (stats, timeline, nowOffset) => {
        const now = new Date(T0 + nowOffset);
        const p = predictDelivery({ journey: journeyOf(timeline), keys, now }, stats);
        if (journeyOf(timeline).stage === null) return expect(p).toBeNull();
        expect(p).not.toBeNull();
        expect(p!.earliest.getTime()).toBeGreaterThanOrEqual(now.getTime());
        expect(p!.likely.getTime()).toBeGreaterThanOrEqual(p!.earliest.getTime());
        expect(p!.latest.getTime()).toBeGreaterThanOrEqual(p!.likely.getTime());
        expect(p!.confidence).toBeGreaterThanOrEqual(0);
        expect(p!.confidence).toBeLessThanOrEqual(1);
      }),
      RUNS,
    );
  });

  it('is monotone with stage: reaching a later main-line stage never moves likely or latest later', () => {
    fc.assert(
      fc.property(
        statsArb,
        fc.array(offsetArb, { minLength: 4, maxLength: 4 }),
        (stats, offsets) => {
          // created ≤ label scan ≤ first transit scan ≤ out for delivery ≤ now
          const [created, label, transit, out, now] = [0, ...offsets]
            .sort((a, b) => a - b)
            .map((o, i, all) => T0 + all.slice(0, i + 1).reduce((a, b) => a + b, 0) / 4);
          const cp = (at: number, status: TrackingStatusCode) => ({ at: new Date(at), status });
          const timelines: ParcelTimeline[] = [
            {
              createdAt: new Date(created),
              status: 'pre_transit',
              checkpoints: [cp(label, 'pre_transit')],
            },
            {
              createdAt: new Date(created),
              status: 'in_transit',
              checkpoints: [cp(label, 'pre_transit'), cp(transit, 'in_transit')],
            },
            {
              createdAt: new Date(created),
              status: 'delivery_in_progress',
              checkpoints: [
                cp(label, 'pre_transit'),
                cp(transit, 'in_transit'),
                cp(out, 'delivery_in_progress'),
              ],
            },
          ];
          const windows = timelines.map((t) =>
            predictDelivery({ journey: journeyOf(t), keys, now: new Date(now) }, stats)!,
          );
          for (let i = 1; i < windows.length; i++) {
            expect(windows[i].likely.getTime()).toBeLessThanOrEqual(
              windows[i - 1].likely.getTime(),
            );
            expect(windows[i].latest.getTime()).toBeLessThanOrEqual(
              windows[i - 1].latest.getTime(),
            );
          }
        },
      ),
      RUNS,
    );
  });

  it("needs its envelope: the stages' own windows alone are not monotone", () => {
    // Without the minimum over earlier stages, thin or odd data at a later stage can promise a
    // later delivery than an earlier stage would; the property above would then fail.
    const raw = fc.check(
      fc.property(statsArb, durationArb, (stats, inTransit) => {
        const a = stageWindow(stats, keys, IN_TRANSIT, inTransit).remaining;
        const b = stageWindow(stats, keys, OUT_FOR_DELIVERY, 0).remaining;
        return b[2] <= a[2];
      }),
      { numRuns: 500, seed: 26 },
    );
    expect(raw.failed).toBe(true);
  });
});
