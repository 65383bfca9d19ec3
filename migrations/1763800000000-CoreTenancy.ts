import { MigrationInterface, QueryRunner } from 'typeorm';

/** Users, teams, memberships, workspaces and access tokens: the tenancy every resource hangs off. */
export class CoreTenancy1763800000000 implements MigrationInterface {
  name = 'CoreTenancy1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "user" (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email citext NOT NULL UNIQUE,
        first_name text,
        last_name text,
        email_verified boolean NOT NULL DEFAULT false,
        password_hash text,
        trial_redeemed boolean NOT NULL DEFAULT false,
        timezone text,
        shipments_volume int,
        needs_help_with text[] NOT NULL DEFAULT '{}',
        last_logged_in_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE team (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE team_member (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES team(id) ON DELETE CASCADE,
        member_id uuid REFERENCES "user"(id) ON DELETE CASCADE,
        invited_email citext,
        role text NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'admin', 'member')),
        invite_token_hash text,
        invited_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_team_member_team_member ON team_member (team_id, member_id) WHERE member_id IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX uq_team_member_team_invited_email ON team_member (team_id, invited_email) WHERE member_id IS NULL`,
    );
    await q.query(`CREATE INDEX ix_team_member_member ON team_member (member_id)`);
    await q.query(`
      CREATE TABLE workspace (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES team(id) ON DELETE CASCADE,
        title text NOT NULL,
        workflows_order jsonb NOT NULL DEFAULT '[]'::jsonb,
        email_settings jsonb NOT NULL DEFAULT '{}'::jsonb,
        scheduled_for_delete boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_workspace_team_created ON workspace (team_id, created_at)`);
    await q.query(`
      CREATE TABLE workspace_member (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        access_level text NOT NULL DEFAULT 'full',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_workspace_member_workspace_user ON workspace_member (workspace_id, user_id)`,
    );
    await q.query(`CREATE INDEX ix_workspace_member_user ON workspace_member (user_id)`);
    await q.query(`
      CREATE TABLE access_token (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash text NOT NULL UNIQUE,
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        client_id uuid,
        scope text,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_access_token_user ON access_token (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP TABLE access_token, workspace_member, workspace, team_member, team, "user"`,
    );
  }
}
