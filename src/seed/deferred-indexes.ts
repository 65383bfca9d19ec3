import type { QueryRunner } from 'typeorm';

/** A secondary index, as PostgreSQL would recreate it. */
export interface IndexDefinition {
  table: string;
  name: string;
  definition: string;
}

/**
 * Bulk loads are dominated by index maintenance: every inserted row updates every index of
 * its table, one row at a time. Building an index afterwards is a single sort instead
 * (parallel maintenance workers, no page splits), an order of magnitude cheaper for a load
 * as large as the table. These two steps bracket such a load; run both in the same
 * transaction, so a failure in between rolls the indexes back into place.
 *
 * Only indexes that back no constraint are dropped (primary keys and constraint-backed
 * unique keys stay, foreign keys need them). DROP INDEX takes an ACCESS EXCLUSIVE lock:
 * the tables are unreadable to other sessions until the transaction ends.
 */
export async function dropSecondaryIndexes(
  runner: QueryRunner,
  tables: readonly string[],
): Promise<IndexDefinition[]> {
  if (!runner.isTransactionActive) throw new Error('dropSecondaryIndexes needs a transaction');
  // Lock all tables at once, in a fixed order, before reading their definitions.
  await runner.query(`LOCK TABLE ${tables.map(quoteIdent).join(', ')} IN ACCESS EXCLUSIVE MODE`);
  const rows: Array<{ table: string; name: string; definition: string }> = await runner.query(
    `SELECT t.relname AS "table", x.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_class x ON x.oid = i.indexrelid
      WHERE t.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
        AND t.relname = ANY($1::text[])
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
      ORDER BY t.relname, x.relname`,
    [tables],
  );
  for (const index of rows) await runner.query(`DROP INDEX ${quoteIdent(index.name)}`);
  return rows;
}

/** Recreates what dropSecondaryIndexes dropped, reporting each one built. */
export async function recreateIndexes(
  runner: QueryRunner,
  indexes: readonly IndexDefinition[],
  onBuilt?: (built: number, total: number, index: IndexDefinition) => void,
): Promise<void> {
  // Sorts in memory where they fit; this transaction only (SET LOCAL).
  await runner.query(`SET LOCAL maintenance_work_mem = '256MB'`);
  let built = 0;
  for (const index of indexes) {
    await runner.query(index.definition);
    onBuilt?.(++built, indexes.length, index);
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
