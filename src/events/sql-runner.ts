/** Anything that runs SQL in the caller's transaction: a TypeORM DataSource, EntityManager or QueryRunner. */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<any>;
}

/**
 * The rows of a TypeORM `query()` result. TypeORM answers `[rows, rowCount]` when the
 * statement's top-level command is UPDATE or DELETE (also `WITH ... UPDATE ... RETURNING`),
 * and the rows otherwise.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}
