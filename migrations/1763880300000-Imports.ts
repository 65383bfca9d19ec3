import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CSV imports of shipments and orders. `content` holds the file's text until the import
 * finishes (any node's worker reads it from here); `attempts` counts job runs.
 */
export class Imports1763880300000 implements MigrationInterface {
  name = 'Imports1763880300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE import (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
        user_id uuid REFERENCES "user" (id) ON DELETE SET NULL,
        status text NOT NULL DEFAULT 'pending',
        entity text NOT NULL,
        file_original_name text,
        file_mime_type text NOT NULL,
        file_size int NOT NULL,
        mapping jsonb NOT NULL,
        content text,
        total_rows int NOT NULL,
        processed_rows int NOT NULL DEFAULT 0,
        created_count int NOT NULL DEFAULT 0,
        failed_count int NOT NULL DEFAULT 0,
        errors jsonb NOT NULL DEFAULT '[]',
        attempts int NOT NULL DEFAULT 0,
        started_at timestamptz,
        finished_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_import_workspace_created ON import (workspace_id, created_at, id)`,
    );
    await q.query(`CREATE INDEX ix_import_user ON import (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE import`);
  }
}
