import {
  ALL_DESTINATIONS,
  LATENCY_BASE,
  PERF,
  REPORTED_QUANTILES,
  SPANS,
  TRANSIT_BASE,
} from './analytics/carrier-performance';
import { COARSE_PROBES, SEGMENT } from './analytics/cumulative-quantiles';
import { BUCKETS, OVERFLOW } from './model/buckets';
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
 * once the performance deltas were counted before being spread, 1766910000000 once the folded
 * performance rows had their own table (a truncate empties it too; `folded` false is the body
 * before).
 */
export function retractFunctionSql(folded: boolean): string {
  return `CREATE OR REPLACE FUNCTION ${RETRACT_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $body$
     BEGIN
       IF TG_OP = 'DELETE' THEN
         ${appendStatSql(statDeltasSql('old_rows', -1))};
         ${appendPerformanceSql(performanceDeltasSql('old_rows', -1))};
       ELSE
         DELETE FROM ${DELIVERY_STAT_TABLE};
         DELETE FROM ${PERFORMANCE_TABLE};${
           folded
             ? `
         DELETE FROM ${FOLDED_PERFORMANCE_TABLE};`
             : ''
         }
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
    retractFunctionSql(false),
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

/**
 * `carrier_performance_folded`: per key of carrier_performance_stat, the sum of its folded
 * delta rows in a fixed-width form (README "Aggregates"): the counters as columns, the transit
 * and pickup latency histograms as dense CUMULATIVE counts (BUCKETS entries each), so that a
 * range's quantile is found by summing its blocks at a few probed buckets (the read touches the
 * same number of values whatever the volume). A key's value is its folded row plus its delta
 * rows (at most COMPACT_AFTER_ROWS, folded each minute by the attention sweeper).
 */
export const FOLDED_PERFORMANCE_TABLE = 'carrier_performance_folded';

/** The counter columns of a folded row, in PERF index order (index i is column i). */
export const PERF_COUNTER_COLUMNS: readonly string[] = Object.entries(PERF)
  .sort(([, a], [, b]) => a - b)
  .map(([name]) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

/** The histograms of a folded row: column and vector base (carrier-performance.ts). */
const HISTOGRAMS = [
  { column: 'transit', base: TRANSIT_BASE },
  { column: 'latency', base: LATENCY_BASE },
] as const;

const KEY_COLUMNS = 'workspace_id, span, day, carrier, destination';

export function installFoldedPerformanceSql(): string[] {
  return [
    `CREATE TABLE ${FOLDED_PERFORMANCE_TABLE} (
       workspace_id uuid NOT NULL,
       span smallint NOT NULL,
       day date NOT NULL,
       carrier text NOT NULL,
       destination text NOT NULL,
       ${PERF_COUNTER_COLUMNS.map((c) => `${c} int NOT NULL`).join(',\n       ')},
       ${HISTOGRAMS.map((h) => `${h.column} int[] NOT NULL`).join(',\n       ')},
       PRIMARY KEY (${KEY_COLUMNS})
     )`,
  ];
}

/**
 * Folds the delta rows of the keys `keys` selects (workspace_id, span, day, carrier,
 * destination) into their folded rows, in one statement: the deltas are deleted and their sums
 * added to the folded row (created when missing). Readers see the key before or after; a
 * concurrent fold of the same key waits, then skips the rows the first one deleted, and adds
 * the rest to the row the first one wrote. Answers the keys written, and whether their row
 * now counts nothing (`empty`: `deleteEmptyFoldedSql` removes those).
 */
export function foldPerformanceSql(keys: string): string {
  const grouped = `GROUP BY ${KEY_COLUMNS}`;
  const sums = PERF_COUNTER_COLUMNS.map(
    (c, i) => `coalesce(sum(n) FILTER (WHERE idx = ${i}), 0)::int AS ${c}`,
  ).join(', ');
  const arrays = HISTOGRAMS.map(
    (h) => `array_agg(c ORDER BY b) FILTER (WHERE base = ${h.base}) AS ${h.column}`,
  ).join(', ');
  const columns = [...PERF_COUNTER_COLUMNS, ...HISTOGRAMS.map((h) => h.column)];
  const t = FOLDED_PERFORMANCE_TABLE;
  return `WITH busy AS (${keys}),
 gone AS (DELETE FROM ${PERFORMANCE_TABLE} s USING busy k
           WHERE s.workspace_id = k.workspace_id AND s.span = k.span AND s.day = k.day
             AND s.carrier = k.carrier AND s.destination = k.destination
          RETURNING s.workspace_id, s.span, s.day, s.carrier, s.destination, s.idx, s.n),
 flat AS (SELECT g.workspace_id, g.span, g.day, g.carrier, g.destination, u.idx, sum(u.n)::int AS n
            FROM gone g CROSS JOIN LATERAL unnest(g.idx, g.n) AS u(idx, n)
           ${grouped}, u.idx HAVING sum(u.n) <> 0),
 counters AS (SELECT ${KEY_COLUMNS}, ${sums} FROM flat ${grouped}),
 grid AS (SELECT c.workspace_id, c.span, c.day, c.carrier, c.destination, h.base, b.b
            FROM counters c
            CROSS JOIN (VALUES ${HISTOGRAMS.map((h) => `(${h.base})`).join(', ')}) AS h(base)
            CROSS JOIN generate_series(0, ${BUCKETS - 1}) AS b(b)),
 cumulative AS (SELECT g.workspace_id, g.span, g.day, g.carrier, g.destination, g.base, g.b,
                       (sum(coalesce(f.n, 0)) OVER (PARTITION BY g.workspace_id, g.span, g.day,
                          g.carrier, g.destination, g.base ORDER BY g.b))::int AS c
                  FROM grid g LEFT JOIN flat f
                    ON f.workspace_id = g.workspace_id AND f.span = g.span AND f.day = g.day
                   AND f.carrier = g.carrier AND f.destination = g.destination
                   AND f.idx = g.base + g.b),
 histograms AS (SELECT ${KEY_COLUMNS}, ${arrays} FROM cumulative ${grouped})
 INSERT INTO ${t} AS t (${KEY_COLUMNS}, ${columns.join(', ')})
 SELECT c.workspace_id, c.span, c.day, c.carrier, c.destination,
        ${PERF_COUNTER_COLUMNS.map((col) => `c.${col}`).join(', ')},
        ${HISTOGRAMS.map((h) => `h.${h.column}`).join(', ')}
   FROM counters c JOIN histograms h USING (${KEY_COLUMNS})
 ON CONFLICT (${KEY_COLUMNS}) DO UPDATE SET
   ${PERF_COUNTER_COLUMNS.map((col) => `${col} = t.${col} + excluded.${col}`).join(',\n   ')},
   ${HISTOGRAMS.map(
     (h) => `${h.column} = ARRAY(SELECT u.a + u.b FROM unnest(t.${h.column}, excluded.${h.column})
       WITH ORDINALITY AS u(a, b, i) ORDER BY u.i)`,
   ).join(',\n   ')}
 RETURNING t.workspace_id, t.span, to_char(t.day, 'YYYY-MM-DD') AS day, t.carrier, t.destination,
   ${emptyFoldedSql('t')} AS empty`;
}

/** Whether the folded row `alias` counts nothing. */
export function emptyFoldedSql(alias: string): string {
  return [
    ...PERF_COUNTER_COLUMNS.map((c) => `${alias}.${c} = 0`),
    ...HISTOGRAMS.map((h) => `${alias}.${h.column} = array_fill(0, ARRAY[${BUCKETS}])`),
  ].join(' AND ');
}

/**
 * The (idx, n) entries of the folded row `alias`, as the delta rows count them: counter i at
 * index i, bucket b of a histogram at its base + b with the cumulative count's step there.
 */
export function foldedEntriesSql(alias: string): string {
  return [
    ...PERF_COUNTER_COLUMNS.map((c, i) => `(${i}, ${alias}.${c})`),
    ...HISTOGRAMS.flatMap((h) =>
      Array.from({ length: BUCKETS }, (_, b) => {
        const at = `${alias}.${h.column}[${b + 1}]`;
        return `(${h.base + b}, ${b > 0 ? `${at} - ${alias}.${h.column}[${b}]` : at})`;
      }),
    ),
  ].join(', ');
}

/**
 * Deletes the folded rows of workspaces $1, spans $2, days $3, carriers $4 and destinations $5
 * (parallel arrays) that count nothing (a deleted workspace's, a moved shipment's): the
 * condition is checked again on the row as it is then, so a concurrent fold is never lost.
 */
export const DELETE_EMPTY_FOLDED_SQL = `DELETE FROM ${FOLDED_PERFORMANCE_TABLE} f
  USING unnest($1::uuid[], $2::smallint[], $3::date[], $4::text[], $5::text[])
        AS k(workspace_id, span, day, carrier, destination)
  WHERE f.workspace_id = k.workspace_id AND f.span = k.span AND f.day = k.day
    AND f.carrier = k.carrier AND f.destination = k.destination AND ${emptyFoldedSql('f')}`;

/** Folds the performance keys of workspace $1 given as parallel arrays $2..$5. */
export const FOLD_PERFORMANCE_KEYS_SQL = foldPerformanceSql(
  `SELECT DISTINCT $1::uuid AS workspace_id, k.span, k.day, k.carrier, k.destination
     FROM unnest($2::smallint[], $3::date[], $4::text[], $5::text[]) AS k(span, day, carrier, destination)`,
);

/** Folds every performance key with more than $1 delta rows (at most $2 keys). */
export const SWEEP_PERFORMANCE_KEYS_SQL = foldPerformanceSql(
  `SELECT ${KEY_COLUMNS} FROM ${PERFORMANCE_TABLE}
    GROUP BY ${KEY_COLUMNS} HAVING count(*) > $1 LIMIT $2`,
);

/**
 * The carrier analytics of a range: workspace $1, blocks $2 (spans) / $3 (days), per carrier
 * and destination when $4 (else the '*' rows). One row per group: its summed counters and
 * histogram totals, and for each quantile `q` (0, 1: transit p50, p90; 2, 3: pickup latency)
 * the first bucket `lo_q` of the segment holding it, found from the sums at the coarse probes,
 * and the cumulative counts around it (`w_q_0` = bucket lo_q - 1 ... `w_q_SEGMENT` = lo_q +
 * SEGMENT - 1). Folded rows are read at those buckets only; delta rows are summed per entry
 * first and count where their entries fall. `busy`: the keys with more than
 * COMPACT_AFTER_ROWS delta rows, as JSON, for the caller to fold.
 */
export function readPerformanceSql(): string {
  const counters = PERF_COUNTER_COLUMNS;
  const window = Array.from({ length: SEGMENT + 1 }, (_, j) => j);
  // The cumulative count of row x's histogram at bucket `at` (an SQL expression).
  const cum = (h: (typeof HISTOGRAMS)[number], at: string) =>
    `coalesce(x.${h.column}[${at} + 1], CASE WHEN x.${h.column}_k <= ${at} THEN x.n ELSE 0 END)`;
  const blocks = (alias: string) =>
    `JOIN b ON ${alias}.span = b.span AND ${alias}.day = b.day
      WHERE ${alias}.workspace_id = $1 AND (${alias}.destination = '${ALL_DESTINATIONS}') <> $4::boolean`;
  const coarse = HISTOGRAMS.flatMap((h) =>
    [...COARSE_PROBES, OVERFLOW].map(
      (p, i) => `sum(${cum(h, String(p))})::int AS ${h.column}_c${i}`,
    ),
  );
  const total = (h: (typeof HISTOGRAMS)[number]) => `${h.column}_c${COARSE_PROBES.length}`;
  const quantiles = HISTOGRAMS.flatMap((h) => REPORTED_QUANTILES.map((p) => ({ h, p })));
  const segments = quantiles.map(({ h, p }, q) => {
    const below = COARSE_PROBES.map(
      (_, k) => `(g.${h.column}_c${k} < ${p}::float8 * g.${total(h)})::int`,
    ).join(' + ');
    return `${SEGMENT} * (${below}) AS lo_${q}`;
  });
  const windows = quantiles.flatMap(({ h }, q) =>
    window.map((j) => `sum(${cum(h, `s.lo_${q} - 1 + ${j}`)})::int AS w_${q}_${j}`),
  );
  return `WITH b AS (SELECT * FROM unnest($2::smallint[], $3::date[]) AS b(span, day)),
 d AS MATERIALIZED (SELECT s.span, s.day, s.carrier, s.destination, s.idx, s.n
         FROM ${PERFORMANCE_TABLE} s ${blocks('s')}),
 e AS (SELECT d.carrier, d.destination, u.idx, sum(u.n)::int AS n
         FROM d CROSS JOIN LATERAL unnest(d.idx, d.n) AS u(idx, n)
        GROUP BY d.carrier, d.destination, u.idx HAVING sum(u.n) <> 0),
 x AS MATERIALIZED (SELECT f.carrier, f.destination, ${counters.map((c) => `f.${c}`).join(', ')},
              ${HISTOGRAMS.map((h) => `f.${h.column}, NULL::int AS ${h.column}_k`).join(', ')}, NULL::int AS n
         FROM ${FOLDED_PERFORMANCE_TABLE} f ${blocks('f')}
       UNION ALL
       SELECT e.carrier, e.destination,
              ${counters.map((_, i) => `CASE WHEN e.idx = ${i} THEN e.n ELSE 0 END`).join(', ')},
              ${HISTOGRAMS.map(
                (h) =>
                  `NULL::int[], CASE WHEN e.idx >= ${h.base} AND e.idx < ${h.base + BUCKETS} THEN e.idx - ${h.base} END`,
              ).join(', ')}, e.n
         FROM e),
 g AS (SELECT x.carrier, x.destination, ${counters.map((c) => `sum(x.${c})::int AS ${c}`).join(', ')},
              ${coarse.join(',\n              ')}
         FROM x GROUP BY x.carrier, x.destination),
 s AS MATERIALIZED (SELECT g.carrier, g.destination, ${counters.map((c) => `g.${c}`).join(', ')},
              ${HISTOGRAMS.map((h) => `g.${total(h)} AS ${h.column}_total`).join(', ')},
              ${segments.join(',\n              ')}
         FROM g),
 w AS (SELECT s.carrier, s.destination, ${windows.join(',\n              ')}
         FROM s JOIN x ON x.carrier = s.carrier AND x.destination = s.destination
        GROUP BY s.carrier, s.destination)
 SELECT s.*, ${quantiles.flatMap((_, q) => window.map((j) => `w.w_${q}_${j}`)).join(', ')},
        (SELECT coalesce(json_agg(json_build_array(k.span, to_char(k.day, 'YYYY-MM-DD'), k.carrier, k.destination)), '[]')
           FROM (SELECT span, day, carrier, destination FROM d
                  GROUP BY span, day, carrier, destination HAVING count(*) > ${COMPACT_AFTER_ROWS}) k) AS busy
   FROM s JOIN w ON w.carrier = s.carrier AND w.destination = s.destination`;
}
