import { SPANS } from './analytics/carrier-performance';
import { COVERAGE_STRIDE } from './contribution';
import { DEFAULT_LEVEL } from './model/lanes';

/**
 * The SQL of the prediction aggregates (README "Aggregates"), shared by the migration that
 * installs them and the stores that write them, so that a contribution expands into the same
 * deltas everywhere (and as `addToStats` / `performanceRowsOf` do in memory).
 *
 * - `prediction_contribution`: per shipment, what it adds (contribution.ts), and its promises.
 * - `delivery_stat`: per team and (level, key), sparse count vectors (`idx`, `n`).
 * - `carrier_performance_stat`: per workspace, block (span, day), carrier and destination.
 *
 * Aggregate rows are deltas: written, never updated; a key's value is the sum of its rows, and
 * reads fold a key's rows into one when they find many (as `maintained_count` does). A change
 * of a contribution appends new minus old in the statement that stores it; a deleted
 * contribution (its shipment deleted, by any path: the foreign key cascades) is taken away by a
 * statement trigger. Migrations call these builders with literal arguments; a changed body
 * ships as a new migration.
 */
export const CONTRIBUTION_TABLE = 'prediction_contribution';
export const DELIVERY_STAT_TABLE = 'delivery_stat';
export const PERFORMANCE_TABLE = 'carrier_performance_stat';
/** A read that finds more delta rows than this for a key folds the key. */
export const COMPACT_AFTER_ROWS = 32;

/** The columns of a contribution row, as the apply statement's recordset declares them. */
export const CONTRIBUTION_COLUMNS = `shipment_id uuid, team_id uuid, workspace_id uuid,
  keys text[], stat_idx int[], coverage_idx int[], day date, carrier text, destination text,
  perf_idx int[], carrier_promise timestamptz, window_promise timestamptz`;

/** `delivery_stat` deltas (team_id, level, key, idx, n) of the contributions in `rows`, times `sign`. */
export function statDeltasSql(rows: string, sign: 1 | -1): string {
  return `SELECT c.team_id, (l.ord - 1)::smallint AS level, l.key, e.idx, ${sign} AS n
    FROM ${rows} c
    CROSS JOIN LATERAL unnest(c.keys) WITH ORDINALITY AS l(key, ord)
    CROSS JOIN LATERAL unnest(c.stat_idx) AS e(idx)
   WHERE l.key IS NOT NULL AND l.ord <= ${DEFAULT_LEVEL}
  UNION ALL
  SELECT c.team_id, (v.ci / ${COVERAGE_STRIDE})::smallint, c.keys[v.ci / ${COVERAGE_STRIDE} + 1],
         v.ci % ${COVERAGE_STRIDE}, ${sign}
    FROM ${rows} c CROSS JOIN LATERAL unnest(c.coverage_idx) AS v(ci)
   WHERE c.keys[v.ci / ${COVERAGE_STRIDE} + 1] IS NOT NULL`;
}

/**
 * `carrier_performance_stat` deltas of the contributions in `rows`, times `sign`: the block of
 * the creation day at every span, under the destination and under '*'. The contributions'
 * entries are counted per (workspace, day, carrier, destination, idx) before being spread over
 * the spans and destinations: a batch's shipments share a few such groups, so a batch expands
 * into a few hundred rows instead of 12 per entry of every shipment (sums are linear: the same
 * deltas; a first refresh of 3 000 shipments spent a third of its apply statement there).
 */
export function performanceDeltasSql(rows: string, sign: 1 | -1): string {
  return `SELECT c.workspace_id, s.span,
         date '1970-01-01' + (floor((c.day - date '1970-01-01')::numeric / s.span) * s.span)::int AS day,
         c.carrier, d.destination, c.idx, c.n
    FROM (SELECT r.workspace_id, r.day, r.carrier, r.destination, e.idx, (${sign} * count(*))::int AS n
            FROM ${rows} r CROSS JOIN LATERAL unnest(r.perf_idx) AS e(idx)
           GROUP BY r.workspace_id, r.day, r.carrier, r.destination, e.idx) c
    CROSS JOIN (VALUES ${SPANS.map((s) => `(${s}::smallint)`).join(', ')}) AS s(span)
    CROSS JOIN LATERAL (VALUES (c.destination), ('*')) AS d(destination)`;
}

/** Appends `deltas` (team_id, level, key, idx, n) to delivery_stat: one row per key, net zero skipped. */
export function appendStatSql(deltas: string): string {
  return `INSERT INTO ${DELIVERY_STAT_TABLE} (team_id, level, key, idx, n)
  SELECT team_id, level, key, array_agg(idx ORDER BY idx), array_agg(n ORDER BY idx)
    FROM (SELECT team_id, level, key, idx, sum(n)::int AS n FROM (${deltas}) d
           GROUP BY team_id, level, key, idx HAVING sum(n) <> 0) g
   GROUP BY team_id, level, key`;
}

/** Appends performance `deltas` to carrier_performance_stat: one row per key, net zero skipped. */
export function appendPerformanceSql(deltas: string): string {
  return `INSERT INTO ${PERFORMANCE_TABLE} (workspace_id, span, day, carrier, destination, idx, n)
  SELECT workspace_id, span, day, carrier, destination, array_agg(idx ORDER BY idx), array_agg(n ORDER BY idx)
    FROM (SELECT workspace_id, span, day, carrier, destination, idx, sum(n)::int AS n FROM (${deltas}) d
           GROUP BY workspace_id, span, day, carrier, destination, idx HAVING sum(n) <> 0) g
   GROUP BY workspace_id, span, day, carrier, destination`;
}

const RETRACT_FUNCTION = 'prediction_contribution_retract';

/**
 * The retracting trigger's function (a deleted contribution's deltas, negated), as of the
 * current delta builders: migration 1766300000000 creates it, 1766810000000 replaced the body
 * once the performance deltas were counted before being spread.
 */
export function retractFunctionSql(): string {
  return `CREATE OR REPLACE FUNCTION ${RETRACT_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $body$
     BEGIN
       IF TG_OP = 'DELETE' THEN
         ${appendStatSql(statDeltasSql('old_rows', -1))};
         ${appendPerformanceSql(performanceDeltasSql('old_rows', -1))};
       ELSE
         DELETE FROM ${DELIVERY_STAT_TABLE};
         DELETE FROM ${PERFORMANCE_TABLE};
       END IF;
       RETURN NULL;
     END $body$`;
}

/** The tables, their indexes and the retracting trigger (migration 1766300000000). */
export function installAggregatesSql(): string[] {
  return [
    `CREATE TABLE ${CONTRIBUTION_TABLE} (
       shipment_id uuid PRIMARY KEY REFERENCES shipment(id) ON DELETE CASCADE,
       team_id uuid NOT NULL,
       workspace_id uuid NOT NULL,
       keys text[] NOT NULL,
       stat_idx int[] NOT NULL,
       coverage_idx int[] NOT NULL,
       day date NOT NULL,
       carrier text NOT NULL,
       destination text NOT NULL,
       perf_idx int[] NOT NULL,
       carrier_promise timestamptz,
       window_promise timestamptz,
       updated_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX ix_${CONTRIBUTION_TABLE}_team ON ${CONTRIBUTION_TABLE} (team_id)`,
    `CREATE TABLE ${DELIVERY_STAT_TABLE} (
       team_id uuid NOT NULL,
       level smallint NOT NULL,
       key text NOT NULL,
       idx int[] NOT NULL,
       n int[] NOT NULL
     )`,
    `CREATE INDEX ix_${DELIVERY_STAT_TABLE}_key ON ${DELIVERY_STAT_TABLE} (team_id, level, key)`,
    `CREATE TABLE ${PERFORMANCE_TABLE} (
       workspace_id uuid NOT NULL,
       span smallint NOT NULL,
       day date NOT NULL,
       carrier text NOT NULL,
       destination text NOT NULL,
       idx int[] NOT NULL,
       n int[] NOT NULL
     )`,
    `CREATE INDEX ix_${PERFORMANCE_TABLE}_key ON ${PERFORMANCE_TABLE} (workspace_id, span, day, carrier, destination)`,
    retractFunctionSql(),
    `CREATE TRIGGER ${RETRACT_FUNCTION}_delete AFTER DELETE ON ${CONTRIBUTION_TABLE}
       REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${RETRACT_FUNCTION}()`,
    `CREATE TRIGGER ${RETRACT_FUNCTION}_truncate AFTER TRUNCATE ON ${CONTRIBUTION_TABLE}
       FOR EACH STATEMENT EXECUTE FUNCTION ${RETRACT_FUNCTION}()`,
  ];
}

export function uninstallAggregatesSql(): string[] {
  return [
    `DROP TABLE ${CONTRIBUTION_TABLE}`,
    `DROP FUNCTION ${RETRACT_FUNCTION}()`,
    `DROP TABLE ${PERFORMANCE_TABLE}`,
    `DROP TABLE ${DELIVERY_STAT_TABLE}`,
  ];
}

/**
 * Folds the delta rows of `$2` levels / `$3` keys of team `$1` into one row per key, in one
 * statement (readers see the rows before or after; a concurrent fold of the same key waits, then
 * skips the rows the first one deleted).
 */
export const COMPACT_STATS_SQL = `WITH k AS (SELECT * FROM unnest($2::smallint[], $3::text[]) AS k(level, key)),
 gone AS (DELETE FROM ${DELIVERY_STAT_TABLE} s USING k
           WHERE s.team_id = $1 AND s.level = k.level AND s.key = k.key
          RETURNING s.level, s.key, s.idx, s.n),
 flat AS (SELECT g.level, g.key, u.idx, sum(u.n)::int AS n
            FROM gone g CROSS JOIN LATERAL unnest(g.idx, g.n) AS u(idx, n)
           GROUP BY g.level, g.key, u.idx HAVING sum(u.n) <> 0)
 INSERT INTO ${DELIVERY_STAT_TABLE} (team_id, level, key, idx, n)
 SELECT $1, level, key, array_agg(idx ORDER BY idx), array_agg(n ORDER BY idx) FROM flat GROUP BY level, key`;

/** Folds every delivery_stat key with more than $1 rows (at most $2 keys). */
export const SWEEP_STATS_SQL = `WITH busy AS (
   SELECT team_id, level, key FROM ${DELIVERY_STAT_TABLE}
    GROUP BY team_id, level, key HAVING count(*) > $1 LIMIT $2),
 gone AS (DELETE FROM ${DELIVERY_STAT_TABLE} s USING busy b
           WHERE s.team_id = b.team_id AND s.level = b.level AND s.key = b.key
          RETURNING s.team_id, s.level, s.key, s.idx, s.n),
 flat AS (SELECT g.team_id, g.level, g.key, u.idx, sum(u.n)::int AS n
            FROM gone g CROSS JOIN LATERAL unnest(g.idx, g.n) AS u(idx, n)
           GROUP BY g.team_id, g.level, g.key, u.idx HAVING sum(u.n) <> 0)
 INSERT INTO ${DELIVERY_STAT_TABLE} (team_id, level, key, idx, n)
 SELECT team_id, level, key, array_agg(idx ORDER BY idx), array_agg(n ORDER BY idx)
   FROM flat GROUP BY team_id, level, key`;

/** Folds the performance keys of workspace $1 given as parallel arrays $2..$5. */
export const COMPACT_PERFORMANCE_SQL = `WITH k AS (
   SELECT * FROM unnest($2::smallint[], $3::date[], $4::text[], $5::text[]) AS k(span, day, carrier, destination)),
 gone AS (DELETE FROM ${PERFORMANCE_TABLE} s USING k
           WHERE s.workspace_id = $1 AND s.span = k.span AND s.day = k.day
             AND s.carrier = k.carrier AND s.destination = k.destination
          RETURNING s.span, s.day, s.carrier, s.destination, s.idx, s.n),
 flat AS (SELECT g.span, g.day, g.carrier, g.destination, u.idx, sum(u.n)::int AS n
            FROM gone g CROSS JOIN LATERAL unnest(g.idx, g.n) AS u(idx, n)
           GROUP BY g.span, g.day, g.carrier, g.destination, u.idx HAVING sum(u.n) <> 0)
 INSERT INTO ${PERFORMANCE_TABLE} (workspace_id, span, day, carrier, destination, idx, n)
 SELECT $1, span, day, carrier, destination, array_agg(idx ORDER BY idx), array_agg(n ORDER BY idx)
   FROM flat GROUP BY span, day, carrier, destination`;

/** Folds every performance key with more than $1 rows (at most $2 keys). */
export const SWEEP_PERFORMANCE_SQL = `WITH busy AS (
   SELECT workspace_id, span, day, carrier, destination FROM ${PERFORMANCE_TABLE}
    GROUP BY workspace_id, span, day, carrier, destination HAVING count(*) > $1 LIMIT $2),
 gone AS (DELETE FROM ${PERFORMANCE_TABLE} s USING busy b
           WHERE s.workspace_id = b.workspace_id AND s.span = b.span AND s.day = b.day
             AND s.carrier = b.carrier AND s.destination = b.destination
          RETURNING s.workspace_id, s.span, s.day, s.carrier, s.destination, s.idx, s.n),
 flat AS (SELECT g.workspace_id, g.span, g.day, g.carrier, g.destination, u.idx, sum(u.n)::int AS n
            FROM gone g CROSS JOIN LATERAL unnest(g.idx, g.n) AS u(idx, n)
           GROUP BY g.workspace_id, g.span, g.day, g.carrier, g.destination, u.idx HAVING sum(u.n) <> 0)
 INSERT INTO ${PERFORMANCE_TABLE} (workspace_id, span, day, carrier, destination, idx, n)
 SELECT workspace_id, span, day, carrier, destination, array_agg(idx ORDER BY idx), array_agg(n ORDER BY idx)
   FROM flat GROUP BY workspace_id, span, day, carrier, destination`;
