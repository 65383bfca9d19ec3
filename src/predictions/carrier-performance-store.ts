import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import { execute, poolOf, preparedQuery, query, type SqlRunner } from '../database/query';
import {
  DELETE_EMPTY_FOLDED_SQL,
  FOLD_PERFORMANCE_KEYS_SQL,
  FOLDED_PERFORMANCE_TABLE,
  foldedEntriesSql,
  PERF_COUNTER_COLUMNS,
  PERFORMANCE_TABLE,
  readPerformanceSql,
  SWEEP_PERFORMANCE_KEYS_SQL,
} from './aggregates.sql';
import {
  dayNumber,
  dayString,
  metricsOfSums,
  rangeBlocks,
  REPORTED_QUANTILES,
  sortedGroups,
  type CarrierPerformance,
  type QuantilesMs,
} from './analytics/carrier-performance';
import { quantileOfCumulative, SEGMENT } from './analytics/cumulative-quantiles';
import { OVERFLOW } from './model/buckets';

/** A carrier_performance_stat key (day as YYYY-MM-DD, the block's start). */
export interface PerformanceStatKey {
  span: number;
  day: string;
  carrier: string;
  destination: string;
}

/** A key a fold wrote, and whether its folded row now counts nothing. */
interface FoldedKey {
  workspace_id: string;
  span: number;
  day: string;
  carrier: string;
  destination: string;
  empty: boolean;
}

/** One row of the read: a group's sums and the segment of each quantile (aggregates.sql.ts). */
type PerformanceReadRow = Record<string, number> & {
  carrier: string;
  destination: string;
  busy: Array<[number, string, string, string]>;
};

const READ_SQL = readPerformanceSql();
/** The histogram total column of each quantile `q` of a read row, in REPORTED_QUANTILES order. */
const TOTAL_COLUMNS = ['transit_total', 'transit_total', 'latency_total', 'latency_total'];

/**
 * Reads the carrier analytics of a workspace (rows written by PredictionStore.apply and the
 * retracting trigger): a date range of creation days is read as its few aligned blocks, so the
 * rows read do not grow with the workspace's volume.
 */
@Injectable()
export class CarrierPerformanceStore {
  constructor(private readonly db: DataSource) {}

  private get pool(): Pool {
    return poolOf(this.db);
  }

  /**
   * The metrics of the shipments created from `from` to `to` (inclusive UTC days, YYYY-MM-DD),
   * per carrier, or per carrier and destination country; and the keys read from many delta
   * rows, for the caller to fold (`compact`) after answering.
   */
  async read(
    workspaceId: string,
    range: { from: string; to: string },
    byDestination: boolean,
    runner: SqlRunner = this.db,
  ): Promise<{ groups: CarrierPerformance[]; busy: PerformanceStatKey[] }> {
    const blocks = rangeBlocks(dayNumber(range.from), dayNumber(range.to));
    if (blocks.length === 0) return { groups: [], busy: [] };
    // The database sums the counters and, per quantile, the cumulative counts at a few probed
    // buckets: a fixed number of values per group, where the whole histograms of every row
    // grew with the workspace's volume (bench/README.md, issue 26).
    const params = [
      workspaceId,
      blocks.map((b) => b.span),
      blocks.map((b) => dayString(b.day)),
      byDestination,
    ];
    // Prepared on the pool: planning the statement cost more than running it.
    const rows =
      runner === this.db
        ? ((await preparedQuery(this.pool, READ_SQL, params)).rows as PerformanceReadRow[])
        : await query<PerformanceReadRow>(runner, READ_SQL, params);
    const metrics = rows.map((r) =>
      metricsOfSums({
        carrier: r.carrier,
        destinationCountry: byDestination ? r.destination : null,
        counter: (i) => r[PERF_COUNTER_COLUMNS[i]],
        transit: pair(quantileMs(r, 0), quantileMs(r, 1)),
        latency: pair(quantileMs(r, 2), quantileMs(r, 3)),
      }),
    );
    const busy = (rows[0]?.busy ?? []).map(([span, day, carrier, destination]) => ({
      span,
      day,
      carrier,
      destination,
    }));
    return { groups: sortedGroups(metrics), busy };
  }

  /** Folds the delta rows of these keys into their folded rows. */
  async compact(
    workspaceId: string,
    keys: readonly PerformanceStatKey[],
    runner: SqlRunner = this.db,
  ): Promise<void> {
    if (keys.length === 0) return;
    const written = await query<FoldedKey>(runner, FOLD_PERFORMANCE_KEYS_SQL, [
      workspaceId,
      keys.map((k) => k.span),
      keys.map((k) => k.day),
      keys.map((k) => k.carrier),
      keys.map((k) => k.destination),
    ]);
    await this.deleteEmpty(written, runner);
  }

  /**
   * Folds every key with more than `maxRows` delta rows (at most `limit` keys); answers the
   * folded rows written. The attention sweeper folds every delta row (0) each minute.
   */
  async sweep(maxRows = 0, limit = 10_000, runner: SqlRunner = this.db): Promise<number> {
    const written = await query<FoldedKey>(runner, SWEEP_PERFORMANCE_KEYS_SQL, [maxRows, limit]);
    await this.deleteEmpty(written, runner);
    return written.length;
  }

  /** Folded rows that count nothing go: a deleted workspace's would otherwise stay forever. */
  private async deleteEmpty(written: readonly FoldedKey[], runner: SqlRunner): Promise<void> {
    const empty = written.filter((k) => k.empty);
    if (empty.length === 0) return;
    await execute(runner, DELETE_EMPTY_FOLDED_SQL, [
      empty.map((k) => k.workspace_id),
      empty.map((k) => k.span),
      empty.map((k) => k.day),
      empty.map((k) => k.carrier),
      empty.map((k) => k.destination),
    ]);
  }

  /** Every key of a workspace with its summed counts, `span|day|carrier|destination` -> idx -> n. */
  async totals(
    workspaceId: string,
    runner: SqlRunner = this.db,
  ): Promise<Map<string, Map<number, number>>> {
    // The folded rows decoded back into sparse entries: counter i at index i, bucket b of a
    // cumulative histogram at base + b with the difference to bucket b - 1.
    const rows = await query<PerformanceStatKey & { idx: number; n: number }>(
      runner,
      `SELECT e.span, to_char(e.day, 'YYYY-MM-DD') AS day, e.carrier, e.destination, e.idx,
              sum(e.n)::int AS n
         FROM (SELECT s.span, s.day, s.carrier, s.destination, u.idx, u.n
                 FROM ${PERFORMANCE_TABLE} s CROSS JOIN LATERAL unnest(s.idx, s.n) AS u(idx, n)
                WHERE s.workspace_id = $1
               UNION ALL
               SELECT f.span, f.day, f.carrier, f.destination, c.idx, c.n
                 FROM ${FOLDED_PERFORMANCE_TABLE} f
                 CROSS JOIN LATERAL (VALUES ${foldedEntriesSql('f')}) AS c(idx, n)
                WHERE f.workspace_id = $1) e
        GROUP BY e.span, e.day, e.carrier, e.destination, e.idx HAVING sum(e.n) <> 0`,
      [workspaceId],
    );
    const out = new Map<string, Map<number, number>>();
    for (const r of rows) {
      const id = `${r.span}|${r.day}|${r.carrier}|${r.destination}`;
      if (!out.has(id)) out.set(id, new Map());
      out.get(id)!.set(r.idx, r.n);
    }
    return out;
  }
}

/** Quantile `q` (ms) of a read row: its window holds the cumulative counts of buckets lo - 1... */
function quantileMs(r: PerformanceReadRow, q: number): number | null {
  const total = r[TOTAL_COLUMNS[q]];
  if (!(total > 0)) return null;
  const lo = r[`lo_${q}`];
  const hi = Math.min(lo + SEGMENT - 1, OVERFLOW);
  return quantileOfCumulative(
    (b) => r[`w_${q}_${b - lo + 1}`],
    total,
    REPORTED_QUANTILES[q & 1],
    lo,
    hi,
  );
}

function pair(p50: number | null, p90: number | null): QuantilesMs {
  return p50 === null || p90 === null ? null : [p50, p90];
}
