import { dayString } from './analytics/carrier-performance';
import { COVERAGE_STRIDE, performanceRowsOf, type Contribution } from './contribution';
import { DEFAULT_LEVEL } from './model/lanes';

/** A contribution with the team and workspace it is counted under. */
export interface CountedContribution {
  teamId: string;
  workspaceId: string;
  contribution: Contribution;
}

/** A contribution replacing another (null: none stored yet). */
export interface ContributionDelta {
  before: CountedContribution | null;
  after: CountedContribution;
}

/** One `delivery_stat` row to append: a key's net counts, idx ascending, no zero. */
export interface StatDeltaRow {
  team_id: string;
  level: number;
  key: string;
  idx: number[];
  n: number[];
}

/** One `carrier_performance_stat` row to append (day: the block's first day, YYYY-MM-DD). */
export interface PerformanceDeltaRow {
  workspace_id: string;
  span: number;
  day: string;
  carrier: string;
  destination: string;
  idx: number[];
  n: number[];
}

/**
 * What replacing these contributions appends to the aggregates (new minus old), expanded as
 * aggregates.sql.ts's `statDeltasSql` and `performanceDeltasSql` expand them in SQL, summed per
 * key and entry, net zero left out: computed in the service, where a batch's contributions
 * already are, instead of in its apply statement (which spent most of its time there).
 */
export function aggregateDeltas(changes: readonly ContributionDelta[]): {
  stats: StatDeltaRow[];
  performance: PerformanceDeltaRow[];
} {
  const stats = new Map<string, { row: Omit<StatDeltaRow, 'idx' | 'n'>; n: Map<number, number> }>();
  // Keyed and built with day numbers; a row's day is formatted once, when it is output (a
  // contribution spans 12 rows, and a batch's contributions share most of their blocks).
  const performance = new Map<
    string,
    {
      row: Omit<PerformanceDeltaRow, 'idx' | 'n' | 'day'> & { day: number };
      n: Map<number, number>;
    }
  >();
  // The counts of one (team, level, key): looked up once per key, not once per entry.
  const statCounts = (teamId: string, level: number, key: string): Map<number, number> => {
    const k = `${teamId}\u0000${level}\u0000${key}`;
    let entry = stats.get(k);
    if (!entry) stats.set(k, (entry = { row: { team_id: teamId, level, key }, n: new Map() }));
    return entry.n;
  };
  const add = ({ teamId, workspaceId, contribution: c }: CountedContribution, sign: number) => {
    for (let level = 0; level < DEFAULT_LEVEL; level++) {
      const key = c.keys[level];
      if (key === null || key === undefined || c.statIdx.length === 0) continue;
      const n = statCounts(teamId, level, key);
      for (const idx of c.statIdx) n.set(idx, (n.get(idx) ?? 0) + sign);
    }
    for (const ci of c.coverageIdx) {
      const level = Math.trunc(ci / COVERAGE_STRIDE);
      const key = c.keys[level];
      if (key === null || key === undefined) continue;
      const n = statCounts(teamId, level, key);
      const idx = ci % COVERAGE_STRIDE;
      n.set(idx, (n.get(idx) ?? 0) + sign);
    }
    for (const p of performanceRowsOf(c)) {
      const k = `${workspaceId}\u0000${p.span}\u0000${p.day}\u0000${p.carrier}\u0000${p.destination}`;
      let entry = performance.get(k);
      if (!entry)
        performance.set(
          k,
          (entry = {
            row: {
              workspace_id: workspaceId,
              span: p.span,
              day: p.day,
              carrier: p.carrier,
              destination: p.destination,
            },
            n: new Map(),
          }),
        );
      for (const idx of p.idx) entry.n.set(idx, (entry.n.get(idx) ?? 0) + sign);
    }
  };
  for (const c of changes) {
    add(c.after, 1);
    if (c.before) add(c.before, -1);
  }
  return {
    stats: rowsOf(stats),
    performance: rowsOf(performance).map((r) => ({ ...r, day: dayString(r.day) })),
  };
}

function rowsOf<R>(
  entries: Map<string, { row: R; n: Map<number, number> }>,
): Array<R & { idx: number[]; n: number[] }> {
  const out: Array<R & { idx: number[]; n: number[] }> = [];
  for (const { row, n } of entries.values()) {
    const idx = [...n.keys()].filter((i) => n.get(i) !== 0).sort((a, b) => a - b);
    if (idx.length > 0) out.push({ ...row, idx, n: idx.map((i) => n.get(i)!) });
  }
  return out;
}
