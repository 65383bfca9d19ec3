import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Demo datasets loaded through POST /test/load-fixtures: which team holds a user's dataset (so
 * loading again replaces it) and the demo users made for it (removed with it).
 */
export class Fixtures1763890400000 implements MigrationInterface {
  name = 'Fixtures1763890400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE fixture_load (
        user_id uuid NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
        dataset text NOT NULL,
        team_id uuid NOT NULL REFERENCES team (id) ON DELETE CASCADE,
        loaded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, dataset)
      )`);
    await q.query(`CREATE INDEX ix_fixture_load_team ON fixture_load (team_id)`);
    await q.query(`
      CREATE TABLE fixture_user (
        team_id uuid NOT NULL REFERENCES team (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
        PRIMARY KEY (team_id, user_id)
      )`);
    await q.query(`CREATE INDEX ix_fixture_user_user ON fixture_user (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE fixture_user`);
    await q.query(`DROP TABLE fixture_load`);
  }
}
