import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { execute, query, type SqlRunner } from '../database/query';
import {
  COMPACT_AFTER_ROWS,
  COMPACT_PERFORMANCE_SQL,
  PERFORMANCE_TABLE,
  SWEEP_PERFORMANCE_SQL,
} from './aggregates.sql';
import {
  ALL_DESTINATIONS,
  carrierPerformance,
  dayNumber,
  dayString,
  rangeBlocks,
  type CarrierPerformance,
} from './analytics/carrier-performance';

/** A carrier_performance_stat key (day as YYYY-MM-DD, the block's start). */
export interface PerformanceStatKey {
  span: number;
  day: string;
  carrier: string;
  destination: string;
}

interface PerformanceStatRow extends PerformanceStatKey {
  idx: number[];
  n: number[];
}

/**
 * Reads the carrier analytics of a workspace (rows written by PredictionStore.apply and the
 * retracting trigger): a date range of creation days is read as its few aligned blocks, so the
 * rows read do not grow with the workspace's volume.
 */
@Injectable()
export class CarrierPerformanceStore {
  constructor(private readonly db: DataSource) {}

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
    // The count vectors travel as JSON (parsed natively by the driver): a busy workspace's
    // rows hold a few hundred entries each, and the driver's int[] parser, character by
    // character in JavaScript, cost more than the rest of the read (bench/README.md).
    const rows = await query<PerformanceStatRow>(
      runner,
      `SELECT s.span, to_char(s.day, 'YYYY-MM-DD') AS day, s.carrier, s.destination,
              to_json(s.idx) AS idx, to_json(s.n) AS n
         FROM ${PERFORMANCE_TABLE} s
         JOIN unnest($2::smallint[], $3::date[]) AS b(span, day) ON s.span = b.span AND s.day = b.day
        WHERE s.workspace_id = $1 AND (s.destination = '${ALL_DESTINATIONS}') <> $4::boolean`,
      [workspaceId, blocks.map((b) => b.span), blocks.map((b) => dayString(b.day)), byDestination],
    );
    const counts = new Map<string, { key: PerformanceStatKey; n: number }>();
    for (const r of rows) {
      const id = `${r.span}|${r.day}|${r.carrier}|${r.destination}`;
      const c = counts.get(id);
      if (c) c.n++;
      else
        counts.set(id, {
          key: { span: r.span, day: r.day, carrier: r.carrier, destination: r.destination },
          n: 1,
        });
    }
    return {
      groups: carrierPerformance(rows, byDestination),
      busy: [...counts.values()].filter((c) => c.n > COMPACT_AFTER_ROWS).map((c) => c.key),
    };
  }

  /** Folds the delta rows of these keys into one row each. */
  async compact(
    workspaceId: string,
    keys: readonly PerformanceStatKey[],
    runner: SqlRunner = this.db,
  ): Promise<void> {
    if (keys.length === 0) return;
    await execute(runner, COMPACT_PERFORMANCE_SQL, [
      workspaceId,
      keys.map((k) => k.span),
      keys.map((k) => k.day),
      keys.map((k) => k.carrier),
      keys.map((k) => k.destination),
    ]);
  }

  /** Folds every key with more than `maxRows` delta rows (at most `limit` keys); answers rows written. */
  async sweep(
    maxRows = COMPACT_AFTER_ROWS,
    limit = 10_000,
    runner: SqlRunner = this.db,
  ): Promise<number> {
    return (await query(runner, `${SWEEP_PERFORMANCE_SQL} RETURNING 1`, [maxRows, limit])).length;
  }

  /** Every key of a workspace with its summed counts, `span|day|carrier|destination` -> idx -> n. */
  async totals(
    workspaceId: string,
    runner: SqlRunner = this.db,
  ): Promise<Map<string, Map<number, number>>> {
    const rows = await query<PerformanceStatKey & { idx: number; n: number }>(
      runner,
      `SELECT s.span, to_char(s.day, 'YYYY-MM-DD') AS day, s.carrier, s.destination, u.idx,
              sum(u.n)::int AS n
         FROM ${PERFORMANCE_TABLE} s CROSS JOIN LATERAL unnest(s.idx, s.n) AS u(idx, n)
        WHERE s.workspace_id = $1
        GROUP BY s.span, s.day, s.carrier, s.destination, u.idx HAVING sum(u.n) <> 0`,
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
