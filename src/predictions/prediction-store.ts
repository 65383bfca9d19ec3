import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { execute, query, type SqlRunner } from '../database/query';
import {
  appendPerformanceSql,
  appendStatSql,
  COMPACT_AFTER_ROWS,
  COMPACT_STATS_SQL,
  CONTRIBUTION_COLUMNS,
  CONTRIBUTION_TABLE,
  DELIVERY_STAT_TABLE,
  performanceDeltasSql,
  statDeltasSql,
  SWEEP_STATS_SQL,
} from './aggregates.sql';
import type { Contribution, Promises } from './contribution';
import type { LaneKeys } from './model/lanes';
import { MemoryStats } from './model/stats';

/** A shipment's contribution to store, with its promises (contribution.ts). */
export interface ContributionChange {
  shipmentId: string;
  teamId: string;
  workspaceId: string;
  contribution: Contribution;
  promises: Promises;
}

/** A stored contribution. */
export type StoredContribution = ContributionChange;

/** One (level, key) of a team's stats. */
export interface StatKey {
  level: number;
  key: string;
}

interface ContributionRow {
  shipment_id: string;
  team_id: string;
  workspace_id: string;
  keys: (string | null)[];
  stat_idx: number[];
  coverage_idx: number[];
  day: string;
  carrier: string;
  destination: string;
  perf_idx: number[];
  carrier_promise: Date | null;
  window_promise: Date | null;
}

const CONTRIBUTION_SELECT = `shipment_id, team_id, workspace_id, keys, stat_idx, coverage_idx,
  to_char(day, 'YYYY-MM-DD') AS day, carrier, destination, perf_idx, carrier_promise, window_promise`;

/**
 * The SQL of delivery predictions: shipments' contributions and the team statistics they add up
 * to (`prediction_contribution`, `delivery_stat`; the carrier analytics' rows are written here
 * too, in the same statement, and read by CarrierPerformanceStore). Methods take the caller's
 * runner (its transaction) or use the pool.
 */
@Injectable()
export class PredictionStore {
  constructor(private readonly db: DataSource) {}

  /**
   * Stores the shipments' contributions and appends to the aggregates what changed (new minus
   * stored), in one statement. The caller holds the shipments' locks (the tracking writer
   * does), so that no two writes of one shipment interleave. Answers how many rows changed
   * (an unchanged contribution writes nothing).
   */
  async apply(runner: SqlRunner, changes: readonly ContributionChange[]): Promise<number> {
    if (changes.length === 0) return 0;
    const last = new Map<string, ContributionChange>();
    for (const c of changes) last.set(c.shipmentId, c);
    const input = [...last.values()].map((c) => ({
      shipment_id: c.shipmentId,
      team_id: c.teamId,
      workspace_id: c.workspaceId,
      keys: c.contribution.keys,
      stat_idx: c.contribution.statIdx,
      coverage_idx: c.contribution.coverageIdx,
      day: c.contribution.day,
      carrier: c.contribution.carrier,
      destination: c.contribution.destination,
      perf_idx: c.contribution.perfIdx,
      carrier_promise: c.promises.carrierDate?.toISOString() ?? null,
      window_promise: c.promises.windowLatest?.toISOString() ?? null,
    }));
    const columns = [
      'team_id',
      'workspace_id',
      'keys',
      'stat_idx',
      'coverage_idx',
      'day',
      'carrier',
      'destination',
      'perf_idx',
      'carrier_promise',
      'window_promise',
    ];
    const [row] = await query<{ saved: number }>(
      runner,
      `WITH input AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${CONTRIBUTION_COLUMNS})),
       old AS (SELECT c.* FROM ${CONTRIBUTION_TABLE} c
                WHERE c.shipment_id IN (SELECT shipment_id FROM input) FOR UPDATE),
       changed AS (SELECT i.* FROM input i LEFT JOIN old o USING (shipment_id)
                    WHERE (o.${columns.join(', o.')}) IS DISTINCT FROM (i.${columns.join(', i.')})),
       before AS (SELECT o.* FROM old o WHERE o.shipment_id IN (SELECT shipment_id FROM changed)),
       saved AS (
         INSERT INTO ${CONTRIBUTION_TABLE} AS c (shipment_id, ${columns.join(', ')})
         SELECT shipment_id, ${columns.join(', ')} FROM changed
         ON CONFLICT (shipment_id) DO UPDATE SET
           ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()
         RETURNING c.shipment_id),
       stat AS (${appendStatSql(`${statDeltasSql('changed', 1)} UNION ALL ${statDeltasSql('before', -1)}`)}
         RETURNING 1),
       perf AS (${appendPerformanceSql(`${performanceDeltasSql('changed', 1)} UNION ALL ${performanceDeltasSql('before', -1)}`)}
         RETURNING 1)
       SELECT (SELECT count(*) FROM saved)::int AS saved`,
      [JSON.stringify(input)],
    );
    return row?.saved ?? 0;
  }

  /** The stored contributions of these shipments (none for a shipment never applied). */
  async contributionsOf(
    runner: SqlRunner,
    shipmentIds: readonly string[],
  ): Promise<Map<string, StoredContribution>> {
    if (shipmentIds.length === 0) return new Map();
    const rows = await query<ContributionRow>(
      runner,
      `SELECT ${CONTRIBUTION_SELECT} FROM ${CONTRIBUTION_TABLE} WHERE shipment_id = ANY($1::uuid[])`,
      [shipmentIds],
    );
    return new Map(rows.map((r) => [r.shipment_id, storedOf(r)]));
  }

  /** Every stored contribution of a team (recomputation; a team's history fits in memory). */
  async contributionsOfTeam(
    runner: SqlRunner,
    teamId: string,
  ): Promise<Map<string, StoredContribution>> {
    const rows = await query<ContributionRow>(
      runner,
      `SELECT ${CONTRIBUTION_SELECT} FROM ${CONTRIBUTION_TABLE} WHERE team_id = $1`,
      [teamId],
    );
    return new Map(rows.map((r) => [r.shipment_id, storedOf(r)]));
  }

  /**
   * What a team learnt at the keys of these shipments (every level of each: the whole back-off
   * chain), in one statement; and the keys read from more than COMPACT_AFTER_ROWS delta rows,
   * which the caller folds (`compactStats`) once its transaction is over.
   */
  async readStats(
    runner: SqlRunner,
    teamId: string,
    shipmentKeys: readonly LaneKeys[],
  ): Promise<{ stats: MemoryStats; busy: StatKey[] }> {
    const wanted = new Map<string, StatKey>();
    for (const keys of shipmentKeys)
      keys.forEach((key, level) => {
        if (key !== null && key !== undefined) wanted.set(`${level}\u0000${key}`, { level, key });
      });
    const stats = new MemoryStats();
    if (wanted.size === 0) return { stats, busy: [] };
    const levels = [...wanted.values()].map((k) => k.level);
    const keys = [...wanted.values()].map((k) => k.key);
    const rows = await query<{ level: number; key: string; idx: number[]; n: number[] }>(
      runner,
      `SELECT s.level, s.key, s.idx, s.n FROM ${DELIVERY_STAT_TABLE} s
         JOIN unnest($2::smallint[], $3::text[]) AS k(level, key) ON s.level = k.level AND s.key = k.key
        WHERE s.team_id = $1`,
      [teamId, levels, keys],
    );
    const counts = new Map<string, number>();
    for (const r of rows) {
      stats.add(r.level, r.key, r.idx, r.n);
      const k = `${r.level}\u0000${r.key}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const busy = [...counts].filter(([, n]) => n > COMPACT_AFTER_ROWS).map(([k]) => wanted.get(k)!);
    return { stats, busy };
  }

  /** Folds the delta rows of these keys into one row each. */
  async compactStats(
    teamId: string,
    keys: readonly StatKey[],
    runner: SqlRunner = this.db,
  ): Promise<void> {
    if (keys.length === 0) return;
    await execute(runner, COMPACT_STATS_SQL, [
      teamId,
      keys.map((k) => k.level),
      keys.map((k) => k.key),
    ]);
  }

  /** Folds every key with more than `maxRows` delta rows (at most `limit` keys); answers rows written. */
  async sweepStats(
    maxRows = COMPACT_AFTER_ROWS,
    limit = 10_000,
    runner: SqlRunner = this.db,
  ): Promise<number> {
    const rows = await query(runner, `${SWEEP_STATS_SQL} RETURNING 1`, [maxRows, limit]);
    return rows.length;
  }

  /** Everything a team learnt, summed (verification against a recomputation). */
  async teamTotals(teamId: string, runner: SqlRunner = this.db): Promise<MemoryStats> {
    const rows = await query<{ level: number; key: string; idx: number; n: number }>(
      runner,
      `SELECT s.level, s.key, u.idx, sum(u.n)::int AS n
         FROM ${DELIVERY_STAT_TABLE} s CROSS JOIN LATERAL unnest(s.idx, s.n) AS u(idx, n)
        WHERE s.team_id = $1 GROUP BY s.level, s.key, u.idx HAVING sum(u.n) <> 0`,
      [teamId],
    );
    const stats = new MemoryStats();
    for (const r of rows) stats.add(r.level, r.key, [r.idx], [r.n]);
    return stats;
  }
}

function storedOf(r: ContributionRow): StoredContribution {
  return {
    shipmentId: r.shipment_id,
    teamId: r.team_id,
    workspaceId: r.workspace_id,
    contribution: {
      keys: r.keys,
      statIdx: r.stat_idx,
      coverageIdx: r.coverage_idx,
      day: r.day,
      carrier: r.carrier,
      destination: r.destination,
      perfIdx: r.perf_idx,
    },
    promises: { carrierDate: r.carrier_promise, windowLatest: r.window_promise },
  };
}
