import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResult } from 'pg';

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
