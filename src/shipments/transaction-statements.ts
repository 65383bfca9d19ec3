import type { PoolClient } from 'pg';
import type { EntityManager } from 'typeorm';
import { preparedQuery } from '../hydra/query/prepared';

/**
 * Runs a statement of the write's transaction as a named prepared statement on its connection:
 * PostgreSQL parses and plans it once per connection instead of on every request (the
 * shipment's select list is long; planning it cost more than running it). Outside a
 * transaction (no connection held) it is an ordinary query.
 */
export async function transactionQuery<T = Record<string, unknown>>(
  em: EntityManager,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const client = (em.queryRunner as unknown as { databaseConnection?: PoolClient } | undefined)
    ?.databaseConnection;
  if (!client || !em.queryRunner?.isTransactionActive) return em.query(sql, params);
  return (await preparedQuery(client, sql, params)).rows as T[];
}
