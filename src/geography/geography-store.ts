import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';

/** Serialises concurrent start-ups of several nodes (advisory lock key, arbitrary but fixed). */
const GEOGRAPHY_SYNC_LOCK_KEY = 727_274_188;

/** The catalogue tables this store mirrors, with their columns' types (primary key `code`). */
export const GEOGRAPHY_TABLES = {
  country: { code: 'text', name: 'text', preferred: 'boolean', stateful: 'boolean' },
  state: { code: 'text', name: 'text', country_code: 'text' },
  timezone: { code: 'text', name: 'text' },
} as const;

export type GeographyTable = keyof typeof GEOGRAPHY_TABLES;
export type GeographyRow = Record<string, string | boolean>;

/** The country, state and timezone tables' SQL: mirrors of the code catalogues. */
@Injectable()
export class GeographyStore {
  /** Holds the sync lock until the transaction ends (one node syncs at a time). */
  async lockSync(runner: SqlRunner): Promise<void> {
    await queryOne(runner, 'SELECT pg_advisory_xact_lock($1)', [GEOGRAPHY_SYNC_LOCK_KEY]);
  }

  /** The zones PostgreSQL's tz data holds (one scan of its files, about 70 ms). */
  async databaseZones(runner: SqlRunner): Promise<string[]> {
    const rows = await query<{ name: string }>(runner, 'SELECT name FROM pg_timezone_names');
    return rows.map((r) => r.name);
  }

  /**
   * Upserts `rows` into `table` and deletes rows no longer given; answers how many rows were
   * inserted, updated or deleted (unchanged ones are left alone).
   */
  async mirror(runner: SqlRunner, table: GeographyTable, rows: GeographyRow[]): Promise<number> {
    const columns: Record<string, string> = GEOGRAPHY_TABLES[table];
    const names = Object.keys(columns);
    const others = names.filter((n) => n !== 'code');
    const recordType = names.map((n) => `${n} ${columns[n]}`).join(', ');
    const upserted = await queryOne<{ n: number }>(
      runner,
      `WITH written AS (
         INSERT INTO ${table} AS t (${names.join(', ')})
         SELECT ${names.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS x(${recordType}) ORDER BY code
         ON CONFLICT (code) DO UPDATE SET ${others.map((n) => `${n} = EXCLUDED.${n}`).join(', ')}
         WHERE (${others.map((n) => `t.${n}`).join(', ')}) IS DISTINCT FROM
               (${others.map((n) => `EXCLUDED.${n}`).join(', ')})
         RETURNING 1)
       SELECT count(*)::int AS n FROM written`,
      [JSON.stringify(rows)],
    );
    const deleted = await queryOne<{ n: number }>(
      runner,
      `WITH gone AS (DELETE FROM ${table} WHERE NOT (code = ANY($1::text[])) RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [rows.map((r) => r.code)],
    );
    return Number(upserted!.n) + Number(deleted!.n);
  }
}
