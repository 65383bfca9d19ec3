import { conditionalQuantiles, DAY_MS, HOUR_MS } from './buckets';
import { DEFAULT_HISTOGRAMS, DEFAULT_REMAINING } from './defaults';
import { logNormalCdf, logNormalQuantile, normalCdf, normalQuantile } from './lognormal';
import { IN_TRANSIT, LABEL, OUT_FOR_DELIVERY, STAGE_COUNT } from './stages';

describe('log-normal helpers', () => {
  it('invert each other', () => {
    for (const p of [0.001, 0.1, 0.5, 0.9, 0.999])
      expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 6);
    const d = DEFAULT_REMAINING[IN_TRANSIT];
    expect(logNormalCdf(d, logNormalQuantile(d, 0.9))).toBeCloseTo(0.9, 6);
  });
});

describe('default windows', () => {
  it('keep the documented medians and 90 % quantiles in the common buckets', () => {
    const expected: Array<[number, number, number]> = [
      [LABEL, 4 * DAY_MS, 12 * DAY_MS],
      [IN_TRANSIT, 2.5 * DAY_MS, 8 * DAY_MS],
      [OUT_FOR_DELIVERY, 5 * HOUR_MS, 1 * DAY_MS],
    ];
    for (const [stage, median, p90] of expected) {
      const [q50, q90] = conditionalQuantiles(DEFAULT_HISTOGRAMS[stage], 0, [0.5, 0.9])!;
      // Within a bucket's width (at most a tenth of the value past the first day).
      expect(Math.abs(q50 - median)).toBeLessThanOrEqual(Math.max(HOUR_MS, median / 10));
      expect(Math.abs(q90 - p90)).toBeLessThanOrEqual(Math.max(HOUR_MS, p90 / 10));
    }
  });

  it('have mass above any elapsed time, so a default window always exists', () => {
    for (let stage = 0; stage < STAGE_COUNT; stage++)
      for (const elapsed of [0, DAY_MS, 30 * DAY_MS, 200 * DAY_MS])
        expect(conditionalQuantiles(DEFAULT_HISTOGRAMS[stage], elapsed, [0.1, 0.9])).not.toBeNull();
  });
});
