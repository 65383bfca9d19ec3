import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CARRIERS } from '../tracking/carriers';

/** Serialises concurrent start-ups of several nodes (advisory lock key, arbitrary but fixed). */
const CATALOGUE_SYNC_LOCK_KEY = 727_274_101;

/**
 * Makes the `carrier` table mirror the code catalogue at start-up: one statement upserts what
 * changed (unchanged rows are not rewritten) and removes carriers no longer in the catalogue.
 * Idempotent, and safe when several nodes start at once.
 */
@Injectable()
export class CarrierCatalogueSync implements OnModuleInit {
  private readonly logger = new Logger(CarrierCatalogueSync.name);

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    const changed = await this.sync();
    if (changed > 0) this.logger.log(`carrier catalogue: ${changed} row(s) written`);
  }

  /** Returns how many rows were inserted, updated or deleted. */
  async sync(): Promise<number> {
    const rows = CARRIERS.map((c) => ({
      code: c.code,
      name: c.name,
      phone: c.phone,
      url: c.url,
      image: c.image,
      country_iso2_codes: c.countryIso2Codes,
      description: c.description,
      tracking_url_template: c.trackingUrlTemplate,
    }));
    return this.dataSource.transaction(async (em) => {
      await em.query('SELECT pg_advisory_xact_lock($1)', [CATALOGUE_SYNC_LOCK_KEY]);
      // Counted through CTEs: TypeORM returns [rows, count] for a bare UPDATE/DELETE.
      const [upserted] = await em.query(
        `WITH src AS (
           SELECT x.code, x.name, x.phone, x.url, x.image,
                  ARRAY(SELECT jsonb_array_elements_text(x.country_iso2_codes)) AS country_iso2_codes,
                  x.description, x.tracking_url_template
             FROM jsonb_to_recordset($1::jsonb) AS x(code text, name text, phone text, url text,
                  image text, country_iso2_codes jsonb, description text, tracking_url_template text)),
         written AS (
         INSERT INTO carrier AS c (code, name, phone, url, image, country_iso2_codes, description,
                                   tracking_url_template)
         SELECT * FROM src ORDER BY code
         ON CONFLICT (code) DO UPDATE SET
           name = EXCLUDED.name, phone = EXCLUDED.phone, url = EXCLUDED.url, image = EXCLUDED.image,
           country_iso2_codes = EXCLUDED.country_iso2_codes, description = EXCLUDED.description,
           tracking_url_template = EXCLUDED.tracking_url_template
         WHERE (c.name, c.phone, c.url, c.image, c.country_iso2_codes, c.description,
                c.tracking_url_template)
               IS DISTINCT FROM
               (EXCLUDED.name, EXCLUDED.phone, EXCLUDED.url, EXCLUDED.image,
                EXCLUDED.country_iso2_codes, EXCLUDED.description, EXCLUDED.tracking_url_template)
         RETURNING 1)
         SELECT count(*)::int AS n FROM written`,
        [JSON.stringify(rows)],
      );
      const [deleted] = await em.query(
        `WITH gone AS (DELETE FROM carrier WHERE NOT (code = ANY($1::text[])) RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [rows.map((r) => r.code)],
      );
      return Number(upserted.n) + Number(deleted.n);
    });
  }
}
