import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Links of external accounts to workspaces: a storefront installation (its tokenId at the
 * storefront app, and the shop) or a marketing provider account. One external account links to
 * one workspace; a workspace has at most one link of each kind.
 */
export class Integrations1763890100000 implements MigrationInterface {
  name = 'Integrations1763890100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE integration_link (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES team (id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('storefront', 'marketing_provider')),
        external_id text NOT NULL,
        account text,
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_integration_link_external UNIQUE (kind, external_id),
        CONSTRAINT uq_integration_link_workspace UNIQUE (workspace_id, kind)
      )`);
    await q.query(
      `CREATE INDEX ix_integration_link_team ON integration_link (team_id, kind, created_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE integration_link`);
  }
}
