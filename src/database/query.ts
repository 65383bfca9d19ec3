import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResult } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * What runs SQL for a store: a TypeORM DataSource, EntityManager or QueryRunner (the caller's
 * transaction when it has one), or a pg pool or client.
 */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
  queryRunner?: { isTransactionActive: boolean; databaseConnection?: unknown };
}

/** One row of a statement's answer, typed by the store that wrote the statement. */
export type Row = Record<string, unknown>;

/**
 * The pg pool under a TypeORM DataSource, for statements that need no transaction and want
 * `preparedQuery` or a client of their own (TypeORM does not expose it in its types).
 */
export function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as unknown as { master: Pool }).master;
}

const names = new Map<string, string>();

/**
 * Runs a statement as a named prepared statement: PostgreSQL parses and plans a given SQL
 * shape once per connection instead of on every request (the collection SQL of a resource is
 * long; planning it dominated short queries). Shapes are bounded: one per statement a store
 * or a declaration writes.
 */
export function preparedQuery(
  db: Pool | PoolClient,
  sql: string,
  params: readonly unknown[],
): Promise<QueryResult> {
  let name = names.get(sql);
  if (!name) {
    name = 'h' + createHash('sha1').update(sql).digest('hex').slice(0, 20);
    if (names.size < 5000) names.set(sql, name);
  }
  return db.query({ name, text: sql, values: params as unknown[] });
}

/**
 * The rows of a `query()` result: pg answers a `QueryResult`; TypeORM answers `[rows,
 * rowCount]` when the statement's top-level command is UPDATE or DELETE (also `WITH ...
 * UPDATE ... RETURNING`), and the rows otherwise.
 */
function rowsOf<T>(result: unknown): T[] {
  if (result && !Array.isArray(result) && Array.isArray((result as QueryResult).rows))
    return (result as QueryResult).rows as T[];
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  )
    return result[0] as T[];
  return result as T[];
}

export function transactionClient(runner: SqlRunner): PoolClient | undefined {
  const client = runner.queryRunner?.databaseConnection as PoolClient | undefined;
  return client && runner.queryRunner?.isTransactionActive ? client : undefined;
}

/**
 * Runs a statement and answers its rows as `T` (the store's row type: column names as the
 * statement selects them). Inside a transaction the statement goes as a named prepared
 * statement on its connection; outside one it is the runner's ordinary query. UPDATE or
 * DELETE ... RETURNING answer their rows too (TypeORM's `query` answers `[rows, count]`).
 */
export async function query<T extends object = Row>(
  runner: SqlRunner,
  sql: string,
  params: readonly unknown[] = [],
): Promise<T[]> {
  const client = transactionClient(runner);
  if (client) return (await preparedQuery(client, sql, params)).rows as T[];
  return rowsOf<T>(await runner.query(sql, params as unknown[]));
}

/** The first row of a statement's answer, or undefined. */
export async function queryOne<T extends object = Row>(
  runner: SqlRunner,
  sql: string,
  params: readonly unknown[] = [],
): Promise<T | undefined> {
  return (await query<T>(runner, sql, params))[0];
}

/**
 * Runs a statement whose rows nobody reads. A caller that needs to know what changed says
 * `RETURNING` and uses `query`.
 */
export async function execute(
  runner: SqlRunner,
  sql: string,
  params: readonly unknown[] = [],
): Promise<void> {
  await query(runner, sql, params);
}

/**
 * Makes the rest of the transaction run its prepared statements on their generic plans. By
 * default PostgreSQL plans a statement that takes an array (`id = ANY($1)`) again on every
 * execution, judging its generic plan costlier than one planned for the values; for a
 * transaction that writes many records by id and unique key (a store import's share) the
 * plans do not depend on the values, and planning each statement again cost more CPU than
 * running it. Only for such transactions: a list's plan may well depend on its workspace.
 */
export async function reuseGenericPlans(runner: SqlRunner): Promise<void> {
  if (transactionClient(runner))
    await runner.query('SET LOCAL plan_cache_mode = force_generic_plan');
}
