import { MigrationInterface, QueryRunner } from 'typeorm';

/** Widgets of a workspace and their event log (lookups by store visitors). */
export class Widgets1763880200000 implements MigrationInterface {
  name = 'Widgets1763880200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE widget (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
        title text NOT NULL,
        type text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        options text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_widget_workspace_created ON widget (workspace_id, created_at, id)`,
    );
    await q.query(`
      CREATE TABLE widget_log (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        widget_id uuid NOT NULL REFERENCES widget (id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
        info text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_widget_log_workspace_created ON widget_log (workspace_id, created_at, id)`,
    );
    await q.query(
      `CREATE INDEX ix_widget_log_widget_created ON widget_log (widget_id, created_at, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE widget_log`);
    await q.query(`DROP TABLE widget`);
  }
}
