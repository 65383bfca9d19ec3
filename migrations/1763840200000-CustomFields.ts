import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom field definitions per workspace and entity, field layouts, and the values: a
 * `custom_fields` jsonb object (code -> value) on the orders and shipments they belong to.
 */
export class CustomFields1763840200000 implements MigrationInterface {
  name = 'CustomFields1763840200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE field (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        entity text NOT NULL CHECK (entity IN ('orders', 'shipments')),
        code text NOT NULL CHECK (code ~ '^[a-zA-Z][a-zA-Z_0-9]*$'),
        title text NOT NULL,
        field_type text NOT NULL,
        readonly boolean,
        sorting boolean,
        select_options jsonb,
        visible_expr text,
        validation text,
        default_value text,
        placeholder text,
        refresh_on_change boolean,
        helper_text text,
        tags jsonb NOT NULL DEFAULT '[]'::jsonb,
        options jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_field_workspace_entity_code ON field (workspace_id, entity, code)`,
    );
    // /fields/{code} looks a code up across the caller's workspaces.
    await q.query(`CREATE INDEX ix_field_code ON field (code, workspace_id)`);

    await q.query(`
      CREATE TABLE fields_layout (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        entity text NOT NULL CHECK (entity IN ('orders', 'shipments')),
        code text NOT NULL,
        title text NOT NULL,
        fields jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_fields_layout_workspace_code ON fields_layout (workspace_id, code)`,
    );
    await q.query(`CREATE INDEX ix_fields_layout_code ON fields_layout (code, workspace_id)`);

    for (const table of ['shipment', '"order"'])
      await q.query(
        `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb`,
      );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['shipment', '"order"'])
      await q.query(`ALTER TABLE ${table} DROP COLUMN IF EXISTS custom_fields`);
    await q.query(`DROP TABLE fields_layout, field`);
  }
}
