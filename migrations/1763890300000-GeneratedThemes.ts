import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Themes generated from shop pages (POST /public/generate-theme): public, owned by nobody,
 * reused for the same address (`reuse`) and readable by their id.
 */
export class GeneratedThemes1763890300000 implements MigrationInterface {
  name = 'GeneratedThemes1763890300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE generated_theme (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        source_url text NOT NULL,
        theme jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_generated_theme_source ON generated_theme (source_url, created_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE generated_theme`);
  }
}
