import { quoteIdent } from '../core/sql-query';

/**
 * The SQL of maintained counts (see README "Maintained counts"): one table of count deltas for
 * every counted table, the definitions installed, and per counted table a trigger function fired
 * once per INSERT / UPDATE / DELETE statement with its transition tables.
 *
 * `maintained_count` holds deltas, not totals: a write appends rows (scope, dimension, value,
 * +n / -n) and never updates one, so concurrent writers never wait on each other's counters
 * and cannot deadlock on them; the count of a key is the sum of its rows. Readers fold a key's
 * rows into one when they find many (`compactSql`), in one statement, which is atomic.
 *
 * Migrations call these builders with literal arguments; a changed trigger body ships as a
 * new migration that calls `installCountsSql` again (CREATE OR REPLACE).
 */

export const COUNT_TABLE = 'maintained_count';
export const COUNT_DEFINITION_TABLE = 'maintained_count_definition';

/** Once, before the first counted table. */
export function countTablesSql(): string[] {
  return [
    `CREATE TABLE ${COUNT_TABLE} (
       table_name text NOT NULL,
       scope_id uuid NOT NULL,
       dimension text NOT NULL,
       value text NOT NULL,
       n bigint NOT NULL
     )`,
    `CREATE INDEX ix_${COUNT_TABLE}_key ON ${COUNT_TABLE} (table_name, scope_id, dimension, value) INCLUDE (n)`,
    `CREATE TABLE ${COUNT_DEFINITION_TABLE} (
       table_name text PRIMARY KEY,
       scope_column text NOT NULL,
       columns text[] NOT NULL
     )`,
  ];
}

export function dropCountTablesSql(): string[] {
  return [`DROP TABLE ${COUNT_DEFINITION_TABLE}`, `DROP TABLE ${COUNT_TABLE}`];
}

export interface CountedTable {
  table: string;
  /** The tenant column every count is kept per (workspace_id); a uuid, never null. */
  scopeColumn: string;
  /** Text or uuid columns whose values get a count each (rows with NULL are not counted there). */
  columns: string[];
  /** Counts another module keeps on the same rows, by the same trigger. */
  derived?: DerivedCount[];
}

/**
 * A count of the table's rows per scope and computed value, kept by the table's trigger for
 * another module than the lists, under a name of its own (its `table_name` in
 * `maintained_count`; the lists' definitions do not list it): e.g. shipments per workspace
 * and month of creation, for the plans' monthly volume (src/billing).
 */
export interface DerivedCount {
  name: string;
  dimension: string;
  /** The counted value: SQL over the row alias `r`; rows where it is NULL are not counted. */
  value: string;
}

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

function functionName(table: string): string {
  return quoteIdent(`${COUNT_TABLE}_${table}`);
}

/**
 * Installs (or replaces) the counting of `table` and fills the counts from its rows. Run it in
 * one transaction: CREATE TRIGGER locks out writers of the table until the commit, so no row
 * is counted twice or missed between the backfill and the first counted statement.
 */
export function installCountsSql({
  table,
  scopeColumn,
  columns,
  derived = [],
}: CountedTable): string[] {
  const t = quoteIdent(table);
  const fn = functionName(table);
  const names = `ARRAY[${[table, ...derived.map((d) => d.name)].map(literal).join(', ')}]::text[]`;
  // One row per (row, count): '' for the whole scope, then each non-null value.
  const keys = [
    `(${literal(table)}, '', '')`,
    ...columns.map((c) => `(${literal(table)}, ${literal(c)}, r.${quoteIdent(c)}::text)`),
    ...derived.map((d) => `(${literal(d.name)}, ${literal(d.dimension)}, (${d.value})::text)`),
  ];
  const unpivot = (rows: string, sign: number) =>
    `SELECT k.name, r.${quoteIdent(scopeColumn)} AS scope_id, k.dimension, k.value, ${sign} AS n
       FROM ${rows} r CROSS JOIN LATERAL (VALUES ${keys.join(', ')}) k(name, dimension, value)
      WHERE k.value IS NOT NULL`;
  const append = (deltas: string) =>
    `INSERT INTO ${COUNT_TABLE} (table_name, scope_id, dimension, value, n)
       SELECT d.name, d.scope_id, d.dimension, d.value, sum(d.n)
         FROM (${deltas}) d
        GROUP BY d.name, d.scope_id, d.dimension, d.value
       HAVING sum(d.n) <> 0`;
  return [
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $body$
     BEGIN
       IF TG_OP = 'INSERT' THEN
         ${append(unpivot('new_rows', 1))};
       ELSIF TG_OP = 'DELETE' THEN
         ${append(unpivot('old_rows', -1))};
       ELSIF TG_OP = 'UPDATE' THEN
         ${append(`${unpivot('new_rows', 1)} UNION ALL ${unpivot('old_rows', -1)}`)};
       ELSE
         DELETE FROM ${COUNT_TABLE} WHERE table_name = ANY(${names});
       END IF;
       RETURN NULL;
     END $body$`,
    `DROP TRIGGER IF EXISTS ${COUNT_TABLE}_insert ON ${t}`,
    `DROP TRIGGER IF EXISTS ${COUNT_TABLE}_update ON ${t}`,
    `DROP TRIGGER IF EXISTS ${COUNT_TABLE}_delete ON ${t}`,
    `DROP TRIGGER IF EXISTS ${COUNT_TABLE}_truncate ON ${t}`,
    `CREATE TRIGGER ${COUNT_TABLE}_insert AFTER INSERT ON ${t}
       REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    `CREATE TRIGGER ${COUNT_TABLE}_update AFTER UPDATE ON ${t}
       REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    `CREATE TRIGGER ${COUNT_TABLE}_delete AFTER DELETE ON ${t}
       REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    `CREATE TRIGGER ${COUNT_TABLE}_truncate AFTER TRUNCATE ON ${t}
       FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    // The backfill: the triggers above hold writers off until the commit.
    `DELETE FROM ${COUNT_TABLE} WHERE table_name = ANY(${names})`,
    `${append(unpivot(t, 1))}`,
    `INSERT INTO ${COUNT_DEFINITION_TABLE} (table_name, scope_column, columns)
       VALUES (${literal(table)}, ${literal(scopeColumn)}, ARRAY[${columns.map(literal).join(', ')}]::text[])
       ON CONFLICT (table_name) DO UPDATE SET scope_column = excluded.scope_column, columns = excluded.columns`,
  ];
}

/** Drops the counting of `table` and its counts, the derived ones named too. */
export function uninstallCountsSql(table: string, derivedNames: string[] = []): string[] {
  const t = quoteIdent(table);
  return [
    ...['insert', 'update', 'delete', 'truncate'].map(
      (op) => `DROP TRIGGER IF EXISTS ${COUNT_TABLE}_${op} ON ${t}`,
    ),
    `DROP FUNCTION IF EXISTS ${functionName(table)}()`,
    `DELETE FROM ${COUNT_TABLE} WHERE table_name = ANY(ARRAY[${[table, ...derivedNames].map(literal).join(', ')}]::text[])`,
    `DELETE FROM ${COUNT_DEFINITION_TABLE} WHERE table_name = ${literal(table)}`,
  ];
}

/** Stops keeping derived counts: their rows go (the table's counting stays as installed). */
export function dropDerivedCountsSql(names: string[]): string[] {
  return [
    `DELETE FROM ${COUNT_TABLE} WHERE table_name = ANY(ARRAY[${names.map(literal).join(', ')}]::text[])`,
  ];
}

/** The count of a key: `n`, and how many delta rows made it (`deltas`, to decide compaction). */
export const READ_COUNT_SQL = `SELECT coalesce(sum(n), 0)::bigint AS n, count(*)::int AS deltas FROM ${COUNT_TABLE}
 WHERE table_name = $1 AND scope_id = ANY($2::uuid[]) AND dimension = $3 AND value = ANY($4::text[])`;

/**
 * Folds the delta rows of the keys into one row each, in one statement (atomic: readers see
 * the rows before or after). A concurrent compaction of the same rows waits, then skips the
 * rows already gone and folds only the rest; rows of uncommitted writes are not touched.
 */
export const COMPACT_COUNT_SQL = `WITH gone AS (
   DELETE FROM ${COUNT_TABLE}
    WHERE table_name = $1 AND scope_id = ANY($2::uuid[]) AND dimension = $3 AND value = ANY($4::text[])
   RETURNING scope_id, value, n)
 INSERT INTO ${COUNT_TABLE} (table_name, scope_id, dimension, value, n)
 SELECT $1, scope_id, $3, value, sum(n) FROM gone GROUP BY scope_id, value HAVING sum(n) <> 0`;

/**
 * Folds every key with more than $1 delta rows (at most $2 keys per run), as COMPACT_COUNT_SQL
 * does for one key: for keys written to but rarely read (a status nobody filters on).
 */
export const SWEEP_COUNTS_SQL = `WITH busy AS (
   SELECT table_name, scope_id, dimension, value FROM ${COUNT_TABLE}
    GROUP BY table_name, scope_id, dimension, value HAVING count(*) > $1 LIMIT $2),
 gone AS (
   DELETE FROM ${COUNT_TABLE} m USING busy b
    WHERE m.table_name = b.table_name AND m.scope_id = b.scope_id
      AND m.dimension = b.dimension AND m.value = b.value
   RETURNING m.table_name, m.scope_id, m.dimension, m.value, m.n)
 INSERT INTO ${COUNT_TABLE} (table_name, scope_id, dimension, value, n)
 SELECT table_name, scope_id, dimension, value, sum(n) FROM gone
  GROUP BY table_name, scope_id, dimension, value HAVING sum(n) <> 0`;

/**
 * Removes the folded rows' dead index entries (a small table: only pages with dead rows are
 * visited); SKIP_LOCKED: another node's vacuum or a migration holding the table skips it.
 */
export const VACUUM_COUNTS_SQL = `VACUUM (SKIP_LOCKED) ${COUNT_TABLE}`;
