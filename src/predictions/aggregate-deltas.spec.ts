import { aggregateDeltas, type CountedContribution } from './aggregate-deltas';
import { SPANS } from './analytics/carrier-performance';
import { COVERAGE_STRIDE, type Contribution } from './contribution';

const contribution = (over: Partial<Contribution> = {}): Contribution => ({
  keys: ['dhl|DE|DE|10', 'dhl|DE|DE', 'dhl|DE', 'dhl', ''],
  statIdx: [5, 130],
  coverageIdx: [],
  day: '2025-03-03',
  carrier: 'dhl',
  destination: 'DE',
  perfIdx: [0, 1],
  ...over,
});

const counted = (c: Contribution, workspaceId = 'w1', teamId = 't1'): CountedContribution => ({
  teamId,
  workspaceId,
  contribution: c,
});

describe('aggregateDeltas', () => {
  it('expands a new contribution as the SQL does: levels 0..3, every span, its destination and *', () => {
    const { stats, performance } = aggregateDeltas([
      { before: null, after: counted(contribution({ coverageIdx: [2 * COVERAGE_STRIDE + 1] })) },
    ]);
    // Level 4 (the default) learns nothing from statIdx; the coverage entry goes to its level.
    expect(stats).toEqual([
      { team_id: 't1', level: 0, key: 'dhl|DE|DE|10', idx: [5, 130], n: [1, 1] },
      { team_id: 't1', level: 1, key: 'dhl|DE|DE', idx: [5, 130], n: [1, 1] },
      { team_id: 't1', level: 2, key: 'dhl|DE', idx: [1, 5, 130], n: [1, 1, 1] },
      { team_id: 't1', level: 3, key: 'dhl', idx: [5, 130], n: [1, 1] },
    ]);
    expect(performance).toHaveLength(SPANS.length * 2);
    expect(performance.filter((r) => r.span === 1)).toEqual([
      {
        workspace_id: 'w1',
        span: 1,
        day: '2025-03-03',
        carrier: 'dhl',
        destination: 'DE',
        idx: [0, 1],
        n: [1, 1],
      },
      {
        workspace_id: 'w1',
        span: 1,
        day: '2025-03-03',
        carrier: 'dhl',
        destination: '*',
        idx: [0, 1],
        n: [1, 1],
      },
    ]);
    // Blocks start on multiples of their span since 1970-01-01 (2025-03-03 is day 20150).
    expect(performance.find((r) => r.span === 64)?.day).toBe('2025-01-08');
  });

  it('appends nothing for a contribution replaced by an equal one', () => {
    const c = contribution();
    expect(aggregateDeltas([{ before: counted(c), after: counted({ ...c }) }])).toEqual({
      stats: [],
      performance: [],
    });
  });

  it('appends new minus old, entry by entry, summed over the batch', () => {
    const before = contribution({ statIdx: [], perfIdx: [0] });
    const after = contribution({ statIdx: [], perfIdx: [0, 1, 1] });
    const { stats, performance } = aggregateDeltas([
      // Entry 0 is in both: net zero, left out.
      { before: counted(before), after: counted(after) },
      { before: null, after: counted(contribution({ statIdx: [], perfIdx: [1] })) },
    ]);
    expect(stats).toEqual([]);
    expect(performance).toHaveLength(SPANS.length * 2);
    for (const row of performance) expect(row).toMatchObject({ idx: [1], n: [3] });
  });

  it('takes an old contribution away under its own workspace and team', () => {
    const { stats, performance } = aggregateDeltas([
      {
        before: counted(contribution({ perfIdx: [0] }), 'w-old', 't-old'),
        after: counted(contribution({ perfIdx: [0] }), 'w-new', 't-new'),
      },
    ]);
    expect(new Set(stats.map((r) => `${r.team_id} ${r.n.join()}`))).toEqual(
      new Set(['t-new 1,1', 't-old -1,-1']),
    );
    expect(new Set(performance.map((r) => `${r.workspace_id} ${r.n.join()}`))).toEqual(
      new Set(['w-new 1', 'w-old -1']),
    );
  });

  it('keeps an index beyond the vectors in order among the others', () => {
    const { stats, performance } = aggregateDeltas([
      { before: null, after: counted(contribution({ statIdx: [99_999, 5], perfIdx: [1_000, 2] })) },
    ]);
    expect(stats[0]).toMatchObject({ idx: [5, 99_999], n: [1, 1] });
    expect(performance[0]).toMatchObject({ idx: [2, 1_000], n: [1, 1] });
  });
});
