import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { rowsOf } from '../../events/sql-runner';

const names = new Map<string, string>();

/**
 * Runs a statement as a named prepared statement: PostgreSQL parses and plans
 * a given SQL shape once per connection instead of on every request (the
 * collection SQL of a resource is long; planning it dominated short queries).
 * Shapes are bounded: one per combination of filters a resource declares.
 */
export function preparedQuery(
  db: Pool | PoolClient,
  sql: string,
  params: unknown[],
): Promise<QueryResult> {
  let name = names.get(sql);
  if (!name) {
    name = 'h' + createHash('sha1').update(sql).digest('hex').slice(0, 20);
    if (names.size < 5000) names.set(sql, name);
  }
  return db.query({ name, text: sql, values: params });
}

/** What runs a write's statements: a TypeORM EntityManager (or DataSource, QueryRunner). */
interface TransactionRunner {
  query(sql: string, parameters?: unknown[]): Promise<any>;
  queryRunner?: { isTransactionActive: boolean; databaseConnection?: unknown };
}

/**
 * Runs a statement of a write's transaction as a named prepared statement on its connection:
 * PostgreSQL parses and plans it once per connection instead of on every request (planning
 * the shipment's long select list cost more than running it). Outside a transaction (no
 * connection held) it is the runner's ordinary query. Answers the rows (also for UPDATE or
 * DELETE ... RETURNING, where TypeORM's `query` answers `[rows, count]`).
 */
export async function transactionQuery<T = Record<string, unknown>>(
  runner: TransactionRunner,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const client = runner.queryRunner?.databaseConnection as PoolClient | undefined;
  if (client && runner.queryRunner?.isTransactionActive)
    return (await preparedQuery(client, sql, params)).rows as T[];
  return rowsOf<T>(await runner.query(sql, params));
}
