import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read-only catalogues served under /public: carriers and tracking statuses. Their rows are
 * synchronised from the code catalogues (src/tracking/carriers, src/tracking/statuses) at every
 * start-up, so the tables only need to exist here.
 */
export class TrackingCatalogues1763850000000 implements MigrationInterface {
  name = 'TrackingCatalogues1763850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE carrier (
        code text PRIMARY KEY,
        name text NOT NULL,
        phone text,
        url text,
        image text,
        country_iso2_codes text[] NOT NULL DEFAULT '{}',
        description text,
        tracking_url_template text
      )`);
    await q.query(`CREATE INDEX ix_carrier_name ON carrier (name, code)`);
    await q.query(`
      CREATE TABLE tracking_status (
        code text PRIMARY KEY,
        title text NOT NULL,
        description text,
        phase text NOT NULL,
        position int NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE tracking_status`);
    await q.query(`DROP TABLE carrier`);
  }
}
