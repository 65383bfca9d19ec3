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
  PERFORMANCE_TABLE,
  performanceDeltasSql,
  statDeltasSql,
  SWEEP_STATS_SQL,
} from './aggregates.sql';
import { aggregateDeltas } from './aggregate-deltas';
import type { Contribution, Promises } from './contribution';
import type { LaneKeys } from './model/lanes';
import { MemoryStats } from './model/stats';
import type { DependentInsert } from '../shipments/shipment-store';

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

/** A contribution as readBatch answers it: CONTRIBUTION_JSON's values, in its order. */
type ContributionJson = [
  shipmentId: string,
  teamId: string,
  workspaceId: string,
  keys: (string | null)[],
  statIdx: number[],
  coverageIdx: number[],
  day: string,
  carrier: string,
  destination: string,
  perfIdx: number[],
  carrierPromise: string | null,
  windowPromise: string | null,
];

/** A stat row as readBatch answers it: the key's ordinal in the statement's keys, its vector. */
type StatJson = [i: number, idx: number[], n: number[]];

const CONTRIBUTION_JSON = `c.shipment_id, c.team_id, c.workspace_id, c.keys, c.stat_idx, c.coverage_idx,
  to_char(c.day, 'YYYY-MM-DD'), c.carrier, c.destination, c.perf_idx, c.carrier_promise, c.window_promise`;

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
    const input = lastOfEach(changes).map(inputOf);
    const columns = STORED_COLUMNS;
    const [row] = await query<{ saved: number }>(
      runner,
      `WITH input AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${CONTRIBUTION_COLUMNS})),
       old AS (SELECT c.* FROM ${CONTRIBUTION_TABLE} c
                WHERE c.shipment_id IN (SELECT shipment_id FROM input) FOR UPDATE),
       changed AS (SELECT i.* FROM input i LEFT JOIN old o USING (shipment_id)
                    WHERE (o.${columns.join(', o.')}) IS DISTINCT FROM (i.${columns.join(', i.')})),
       before AS (SELECT o.* FROM old o WHERE o.shipment_id IN (SELECT shipment_id FROM changed)),
       saved AS (${upsertContributionsSql('changed')} RETURNING c.shipment_id),
       stat AS (${appendStatSql(`${statDeltasSql('changed', 1)} UNION ALL ${statDeltasSql('before', -1)}`)}
         RETURNING 1),
       perf AS (${appendPerformanceSql(`${performanceDeltasSql('changed', 1)} UNION ALL ${performanceDeltasSql('before', -1)}`)}
         RETURNING 1)
       SELECT (SELECT count(*) FROM saved)::int AS saved`,
      [JSON.stringify(input)],
    );
    return row?.saved ?? 0;
  }

  /**
   * `apply` for a caller that read the stored contributions itself, locked (readBatch) and
   * still holding the shipments' locks: the deltas (new minus `before`) are computed in the
   * service, where the contributions are, and the statement only writes. `changes` are those
   * that differ from what is stored. Answers how many rows it wrote.
   */
  async replace(
    runner: SqlRunner,
    changes: readonly ContributionChange[],
    before: ReadonlyMap<string, StoredContribution>,
  ): Promise<number> {
    if (changes.length === 0) return 0;
    const [saved, stat, perf] = this.replacing(changes, before);
    const [row] = await query<{ saved: number }>(
      runner,
      `WITH saved AS (${saved.sql('$1')} RETURNING 1),
       stat AS (${stat.sql('$2')} RETURNING 1),
       perf AS (${perf.sql('$3')} RETURNING 1)
       SELECT (SELECT count(*) FROM saved)::int AS saved`,
      [saved.param, stat.param, perf.param],
    );
    return row?.saved ?? 0;
  }

  /**
   * What `replace` writes, as three statements of one parameter each (the contributions' upsert,
   * the stats' and the carrier analytics' delta rows): a new shipment's INSERT carries them
   * (ShipmentStore.insert's dependents), one round trip fewer per create. Empty when nothing
   * changed.
   */
  replacing(
    changes: readonly ContributionChange[],
    before: ReadonlyMap<string, StoredContribution>,
  ): DependentInsert[] {
    if (changes.length === 0) return [];
    const written = lastOfEach(changes);
    const deltas = aggregateDeltas(
      written.map((after) => ({ after, before: before.get(after.shipmentId) ?? null })),
    );
    return [
      {
        sql: (p) =>
          upsertContributionsSql(`jsonb_to_recordset(${p}::jsonb) AS x(${CONTRIBUTION_COLUMNS})`),
        param: JSON.stringify(written.map(inputOf)),
      },
      {
        sql: (p) => `INSERT INTO ${DELIVERY_STAT_TABLE} (team_id, level, key, idx, n)
         SELECT team_id, level, key, idx, n
           FROM jsonb_to_recordset(${p}::jsonb) AS x(team_id uuid, level smallint, key text, idx int[], n int[])`,
        param: JSON.stringify(deltas.stats),
      },
      {
        sql: (
          p,
        ) => `INSERT INTO ${PERFORMANCE_TABLE} (workspace_id, span, day, carrier, destination, idx, n)
         SELECT workspace_id, span, day, carrier, destination, idx, n
           FROM jsonb_to_recordset(${p}::jsonb) AS x(workspace_id uuid, span smallint, day date,
                carrier text, destination text, idx int[], n int[])`,
        param: JSON.stringify(deltas.performance),
      },
    ];
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
   * What a batch of status changes reads, in one statement whatever its teams: the stored
   * contributions of `shipmentIds`, locked until the transaction ends (`replace` counts on
   * them), and per team what it learnt at the keys of its shipments (every level of each: the
   * whole back-off chain), with the keys read from more than COMPACT_AFTER_ROWS delta rows,
   * which the caller folds (`compactStats`) once its transaction is over. Answered as JSON,
   * parsed natively: the driver's `int[]` parser, character by character in JavaScript, cost
   * more than the statement.
   */
  async readBatch(
    runner: SqlRunner,
    shipmentIds: readonly string[],
    shipments: readonly { teamId: string; keys: LaneKeys }[],
  ): Promise<{
    contributions: Map<string, StoredContribution>;
    stats: Map<string, MemoryStats>;
    busy: Map<string, StatKey[]>;
  }> {
    const wanted = new Map<string, StatKey & { teamId: string }>();
    for (const { teamId, keys } of shipments)
      keys.forEach((key, level) => {
        if (key !== null && key !== undefined)
          wanted.set(`${teamId}\u0000${level}\u0000${key}`, { teamId, level, key });
      });
    const stats = new Map<string, MemoryStats>();
    for (const { teamId } of shipments)
      if (!stats.has(teamId)) stats.set(teamId, new MemoryStats());
    const contributions = new Map<string, StoredContribution>();
    const busy = new Map<string, StatKey[]>();
    if (shipmentIds.length === 0 && wanted.size === 0) return { contributions, stats, busy };
    const list = [...wanted.values()];
    const [row] = await query<{ contributions: ContributionJson[]; stats: StatJson[] }>(
      runner,
      // FOR UPDATE cannot stand beside an aggregate: the rows are locked in a CTE of their own.
      // Each key's rows by the index, whatever the plan: a generic plan (a store import's) does
      // not know how few keys the arrays hold and hash-joined a scan of every team's stats.
      `WITH c AS (SELECT * FROM ${CONTRIBUTION_TABLE} WHERE shipment_id = ANY($1::uuid[]) FOR UPDATE)
       SELECT (SELECT coalesce(json_agg(json_build_array(${CONTRIBUTION_JSON})), '[]') FROM c)
                AS contributions,
              (SELECT coalesce(json_agg(json_build_array(k.i, s.idx, s.n)), '[]')
                 FROM unnest($2::uuid[], $3::smallint[], $4::text[]) WITH ORDINALITY AS k(team_id, level, key, i)
                 CROSS JOIN LATERAL (
                   SELECT s.idx, s.n FROM ${DELIVERY_STAT_TABLE} s
                    WHERE s.team_id = k.team_id AND s.level = k.level AND s.key = k.key
                   OFFSET 0) s) AS stats`,
      [shipmentIds, list.map((k) => k.teamId), list.map((k) => k.level), list.map((k) => k.key)],
    );
    for (const c of row.contributions) contributions.set(c[0], storedOfJson(c));
    const counts = new Map<number, number>();
    for (const [i, idx, n] of row.stats) {
      const k = list[i - 1];
      stats.get(k.teamId)!.add(k.level, k.key, idx, n);
      counts.set(i, (counts.get(i) ?? 0) + 1);
    }
    for (const [i, n] of counts) {
      if (n <= COMPACT_AFTER_ROWS) continue;
      const { teamId, level, key } = list[i - 1];
      let keys = busy.get(teamId);
      if (!keys) busy.set(teamId, (keys = []));
      keys.push({ level, key });
    }
    return { contributions, stats, busy };
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

/** The stored columns of a contribution but its key, as the statements write them. */
const STORED_COLUMNS = [
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

/** The last change of each shipment: a batch naming one twice stores its last. */
function lastOfEach(changes: readonly ContributionChange[]): ContributionChange[] {
  const last = new Map<string, ContributionChange>();
  for (const c of changes) last.set(c.shipmentId, c);
  return [...last.values()];
}

/** Stores the contributions `source` selects (shipment_id and STORED_COLUMNS), new or replacing. */
function upsertContributionsSql(source: string): string {
  return `INSERT INTO ${CONTRIBUTION_TABLE} AS c (shipment_id, ${STORED_COLUMNS.join(', ')})
         SELECT shipment_id, ${STORED_COLUMNS.join(', ')} FROM ${source}
         ON CONFLICT (shipment_id) DO UPDATE SET
           ${STORED_COLUMNS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()`;
}

/** A contribution as the statements' recordsets read it (CONTRIBUTION_COLUMNS). */
function inputOf(c: ContributionChange) {
  return {
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
  };
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

function storedOfJson(c: ContributionJson): StoredContribution {
  const date = (d: string | null) => (d === null ? null : new Date(d));
  return {
    shipmentId: c[0],
    teamId: c[1],
    workspaceId: c[2],
    contribution: {
      keys: c[3],
      statIdx: c[4],
      coverageIdx: c[5],
      day: c[6],
      carrier: c[7],
      destination: c[8],
      perfIdx: c[9],
    },
    promises: { carrierDate: date(c[10]), windowLatest: date(c[11]) },
  };
}
