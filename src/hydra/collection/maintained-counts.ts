import type { Pool } from 'pg';
import { quoteIdent, type SqlQuery } from '../core/sql-query';
import { COUNT_DEFINITION_TABLE, COMPACT_COUNT_SQL } from './maintained-counts.sql';

/** What a migration installed for one table (maintained-counts.sql.ts). */
export interface CountDefinition {
  table: string;
  scopeColumn: string;
  columns: string[];
}

/** One maintained count: the sum over these scopes of the dimension's values ('' for all rows). */
export interface CountKey {
  table: string;
  scopeIds: string[];
  dimension: string;
  values: string[];
}

/**
 * The maintained count that equals `SELECT count(*)` of the query, or null when the query has
 * another shape. It must be a query of the counted table alone (no join), whose every condition
 * is a declared equality (SqlQuery.andWhere's `equality`): on the scope column (tenancy, route
 * scope), and on at most one other column, a dimension the resource declares and the
 * definition installs. Several equalities on one column intersect (tenancy and route scope).
 */
export function countKeyOf(
  query: SqlQuery,
  definition: CountDefinition,
  dimensions: ReadonlySet<string>,
): CountKey | null {
  if (query.hasJoins() || query.where.length === 0) return null;
  const columnOf = new Map<string, string>(
    [definition.scopeColumn, ...definition.columns].map((c) => [
      `${query.alias}.${quoteIdent(c)}`,
      c,
    ]),
  );
  const values = new Map<string, Set<string>>();
  for (const equality of query.equalities) {
    const column = equality && columnOf.get(equality.sql);
    if (!column) return null;
    if (column !== definition.scopeColumn && !dimensions.has(column)) return null;
    const given = new Set(equality.values);
    const seen = values.get(column);
    values.set(column, seen ? new Set([...seen].filter((v) => given.has(v))) : given);
  }
  const scopeIds = values.get(definition.scopeColumn);
  if (!scopeIds) return null;
  values.delete(definition.scopeColumn);
  if (values.size > 1) return null;
  const [dimension, dimensionValues] = [...values.entries()][0] ?? ['', new Set([''])];
  return {
    table: definition.table,
    scopeIds: [...scopeIds],
    dimension,
    values: [...dimensionValues],
  };
}

/** Installed definitions, by table; none when the table is missing (a database before it). */
export async function loadCountDefinitions(pool: Pool): Promise<Map<string, CountDefinition>> {
  try {
    // Only columns whose text form compares as the column does (no citext, no numbers).
    const { rows } = await pool.query<{ table: string; scope: string; columns: string[] }>(
      `SELECT d.table_name AS table, d.scope_column AS scope,
              array(SELECT c FROM unnest(d.columns) c
                     WHERE (SELECT data_type FROM information_schema.columns i
                             WHERE i.table_schema = current_schema() AND i.table_name = d.table_name
                               AND i.column_name = c) IN ('text', 'character varying', 'uuid')) AS columns
         FROM ${COUNT_DEFINITION_TABLE} d`,
    );
    return new Map(
      rows.map((r) => [r.table, { table: r.table, scopeColumn: r.scope, columns: r.columns }]),
    );
  } catch (error) {
    if ((error as { code?: string }).code === '42P01') return new Map();
    throw error;
  }
}

/** A key read from more delta rows than this is folded (after the answer). */
export const COMPACT_AFTER_DELTAS = 32;

/**
 * Folds the delta rows of keys that grew, one compaction per key at a time in this process.
 * Runs after the response, on the pool; a failure only leaves the rows to the next reader.
 */
export class CountCompactor {
  private readonly running = new Set<string>();

  constructor(
    private readonly pool: () => Pool,
    private readonly onError: (error: unknown) => void,
  ) {}

  compact(params: unknown[]): void {
    const id = JSON.stringify(params);
    if (this.running.has(id)) return;
    this.running.add(id);
    this.pool()
      .query(COMPACT_COUNT_SQL, params)
      .catch(this.onError)
      .finally(() => this.running.delete(id));
  }
}
