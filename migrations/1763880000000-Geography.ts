import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shared catalogues of countries, their states and time zones. Rows are synchronised from the
 * code catalogues (src/geography) at every start-up, so the tables only need to exist here.
 */
export class Geography1763880000000 implements MigrationInterface {
  name = 'Geography1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE country (
        code text PRIMARY KEY,
        name text NOT NULL,
        preferred boolean NOT NULL DEFAULT false,
        stateful boolean NOT NULL DEFAULT false
      )`);
    await q.query(`CREATE INDEX ix_country_name ON country (name, code)`);
    await q.query(`
      CREATE TABLE state (
        code text PRIMARY KEY,
        name text NOT NULL,
        country_code text NOT NULL REFERENCES country (code) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX ix_state_country_name ON state (country_code, name, code)`);
    await q.query(`
      CREATE TABLE timezone (
        code text PRIMARY KEY,
        name text NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE timezone`);
    await q.query(`DROP TABLE state`);
    await q.query(`DROP TABLE country`);
  }
}
