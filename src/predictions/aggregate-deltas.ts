import { dayString, PERF_VECTOR_SIZE } from './analytics/carrier-performance';
import { COVERAGE_STRIDE, performanceRowsOf, type Contribution } from './contribution';
import { DEFAULT_LEVEL } from './model/lanes';
import { VECTOR_SIZE } from './model/stats';

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
  const stats = new Map<string, { row: Omit<StatDeltaRow, 'idx' | 'n'>; n: Counts }>();
  // Keyed and built with day numbers; a row's day is formatted once, when it is output (a
  // contribution spans 12 rows, and a batch's contributions share most of their blocks).
  const performance = new Map<
    string,
    {
      row: Omit<PerformanceDeltaRow, 'idx' | 'n' | 'day'> & { day: number };
      n: Counts;
    }
  >();
  const cohorts = new Map<string, { workspaceId: string; of: Contribution; n: Counts }>();
  // The counts of one (team, level, key): looked up once per key, not once per entry.
  const statCounts = (teamId: string, level: number, key: string): Counts => {
    const k = `${teamId}\u0000${level}\u0000${key}`;
    let entry = stats.get(k);
    if (!entry)
      stats.set(k, (entry = { row: { team_id: teamId, level, key }, n: new Counts(VECTOR_SIZE) }));
    return entry.n;
  };
  const add = ({ teamId, workspaceId, contribution: c }: CountedContribution, sign: number) => {
    for (let level = 0; level < DEFAULT_LEVEL; level++) {
      const key = c.keys[level];
      if (key === null || key === undefined || c.statIdx.length === 0) continue;
      const n = statCounts(teamId, level, key);
      for (const idx of c.statIdx) n.add(idx, sign);
    }
    for (const ci of c.coverageIdx) {
      const level = Math.trunc(ci / COVERAGE_STRIDE);
      const key = c.keys[level];
      if (key === null || key === undefined) continue;
      const n = statCounts(teamId, level, key);
      n.add(ci % COVERAGE_STRIDE, sign);
    }
    // Counted per cohort first: a batch's contributions share few cohorts, each expanded once.
    const ck = `${workspaceId}\u0000${c.day}\u0000${c.carrier}\u0000${c.destination}`;
    let cohort = cohorts.get(ck);
    if (!cohort)
      cohorts.set(ck, (cohort = { workspaceId, of: c, n: new Counts(PERF_VECTOR_SIZE) }));
    for (const idx of c.perfIdx) cohort.n.add(idx, sign);
  };
  for (const c of changes) {
    add(c.after, 1);
    if (c.before) add(c.before, -1);
  }
  for (const { workspaceId, of, n } of cohorts.values()) {
    const { idx, counts } = n.entries();
    if (idx.length === 0) continue;
    for (const p of performanceRowsOf({ ...of, perfIdx: idx })) {
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
            n: new Counts(PERF_VECTOR_SIZE),
          }),
        );
      for (let i = 0; i < idx.length; i++) entry.n.add(idx[i], counts[i]);
    }
  }
  // A batch's rows share few days: each formatted once.
  const days = new Map<number, string>();
  const dayOf = (n: number) => days.get(n) ?? days.set(n, dayString(n)).get(n)!;
  return {
    stats: rowsOf(stats, (row) => row),
    performance: rowsOf(performance, (row) => ({ ...row, day: dayOf(row.day) })),
  };
}

/** The rows with their non-zero entries, idx ascending (`shape`: the row's output columns). */
function rowsOf<R, O extends object>(
  entries: Map<string, { row: R; n: Counts }>,
  shape: (row: R) => O,
): Array<O & { idx: number[]; n: number[] }> {
  const out: Array<O & { idx: number[]; n: number[] }> = [];
  for (const { row, n } of entries.values()) {
    const { idx, counts } = n.entries();
    if (idx.length > 0) out.push(Object.assign(shape(row), { idx, n: counts }));
  }
  return out;
}

/** Entries per allocated piece of a Counts. */
const PIECE = 128;

/**
 * Net counts by index, in pieces of PIECE entries allocated on first use (a Map per row was
 * most of the deltas' time; arrays as wide as the vectors, 20 KB a stat row, most of its
 * garbage); an index beyond the width, which the model never writes, in a Map.
 */
class Counts {
  private readonly pieces: (Float64Array | undefined)[];
  private other: Map<number, number> | null = null;

  constructor(private readonly width: number) {
    this.pieces = new Array<Float64Array | undefined>(Math.ceil(width / PIECE));
  }

  add(idx: number, n: number): void {
    if (idx >= 0 && idx < this.width && Number.isInteger(idx)) {
      const p = Math.floor(idx / PIECE);
      (this.pieces[p] ??= new Float64Array(PIECE))[idx % PIECE] += n;
    } else {
      this.other ??= new Map();
      this.other.set(idx, (this.other.get(idx) ?? 0) + n);
    }
  }

  /** The non-zero entries, idx ascending. */
  entries(): { idx: number[]; counts: number[] } {
    const pairs: [number, number][] = [];
    for (let p = 0; p < this.pieces.length; p++) {
      const piece = this.pieces[p];
      if (piece)
        for (let b = 0; b < PIECE; b++) if (piece[b] !== 0) pairs.push([p * PIECE + b, piece[b]]);
    }
    if (this.other) {
      for (const [i, v] of this.other) if (v !== 0) pairs.push([i, v]);
      pairs.sort((a, b) => a[0] - b[0]);
    }
    return { idx: pairs.map(([i]) => i), counts: pairs.map(([, v]) => v) };
  }
}
