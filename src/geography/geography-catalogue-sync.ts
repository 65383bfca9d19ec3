import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { countryCatalogue, stateCatalogue, timeZoneCatalogue } from './geography-catalogue';

/** Serialises concurrent start-ups of several nodes (advisory lock key, arbitrary but fixed). */
const GEOGRAPHY_SYNC_LOCK_KEY = 727_274_188;

type Row = Record<string, string | boolean>;

/**
 * Makes the `country`, `state` and `timezone` tables mirror the code catalogues at start-up:
 * changed rows are upserted, unchanged ones left alone, vanished ones removed. Idempotent and
 * safe when several nodes start at once. Time zones the database does not know are left out,
 * so the offset computed on read never fails.
 */
@Injectable()
export class GeographyCatalogueSync implements OnModuleInit {
  private readonly logger = new Logger(GeographyCatalogueSync.name);

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    const changed = await this.sync();
    if (changed > 0) this.logger.log(`geography catalogue: ${changed} row(s) written`);
  }

  /** Returns how many rows were inserted, updated or deleted. */
  async sync(): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      await em.query('SELECT pg_advisory_xact_lock($1)', [GEOGRAPHY_SYNC_LOCK_KEY]);
      let changed = 0;
      changed += await mirror(
        em,
        'country',
        { code: 'text', name: 'text', preferred: 'boolean', stateful: 'boolean' },
        countryCatalogue().map((c) => ({ ...c })),
      );
      changed += await mirror(
        em,
        'state',
        { code: 'text', name: 'text', country_code: 'text' },
        stateCatalogue().map((s) => ({ code: s.code, name: s.name, country_code: s.countryCode })),
      );
      changed += await mirror(
        em,
        'timezone',
        { code: 'text', name: 'text' },
        timeZoneCatalogue(await databaseZones(em)).map((z) => ({ ...z })),
      );
      return changed;
    });
  }
}

/** The zones PostgreSQL's tz data holds (one scan of its files, about 70 ms). */
async function databaseZones(em: EntityManager): Promise<string[]> {
  const rows: Array<{ name: string }> = await em.query('SELECT name FROM pg_timezone_names');
  return rows.map((r) => r.name);
}

/** Upserts `rows` into `table` (primary key `code`) and deletes rows no longer given. */
async function mirror(
  em: EntityManager,
  table: string,
  columns: Record<string, 'text' | 'boolean'>,
  rows: Row[],
): Promise<number> {
  const names = Object.keys(columns);
  const others = names.filter((n) => n !== 'code');
  const recordType = names.map((n) => `${n} ${columns[n]}`).join(', ');
  // Counted through CTEs: TypeORM returns [rows, count] for a bare UPDATE/DELETE.
  const [upserted] = await em.query(
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
  const [deleted] = await em.query(
    `WITH gone AS (DELETE FROM ${table} WHERE NOT (code = ANY($1::text[])) RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [rows.map((r) => r.code)],
  );
  return Number(upserted.n) + Number(deleted.n);
}
