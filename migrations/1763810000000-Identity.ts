import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Identity and OAuth2: API clients, authorization codes, refresh tokens (rotating, in
 * families), one-time e-mail tokens, and the links that let a reused code or refresh token
 * revoke everything issued from it. Secrets, codes and tokens are stored only as SHA-256.
 */
export class Identity1763810000000 implements MigrationInterface {
  name = 'Identity1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE oauth_client (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        name text NOT NULL,
        redirect_uris text[] NOT NULL DEFAULT '{}',
        public_id text NOT NULL,
        secret_hash text NOT NULL,
        grants text[] NOT NULL DEFAULT '{client_credentials,authorization_code,refresh_token}',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_oauth_client_public_id ON oauth_client (public_id)`);
    await q.query(
      `CREATE INDEX ix_oauth_client_user_created ON oauth_client (user_id, created_at)`,
    );

    await q.query(`
      CREATE TABLE oauth_authorization_code (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        code_hash text NOT NULL UNIQUE,
        client_id uuid NOT NULL REFERENCES oauth_client(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        redirect_uri text,
        scope text,
        code_challenge text,
        code_challenge_method text,
        family_id uuid NOT NULL DEFAULT gen_random_uuid(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);

    // Tokens issued from one authorization code share a family; refreshing stays in it.
    await q.query(`ALTER TABLE access_token ADD COLUMN family_id uuid`);
    await q.query(
      `ALTER TABLE access_token ADD CONSTRAINT fk_access_token_client FOREIGN KEY (client_id) REFERENCES oauth_client(id) ON DELETE CASCADE`,
    );
    await q.query(`CREATE INDEX ix_access_token_client ON access_token (client_id)`);
    await q.query(
      `CREATE INDEX ix_access_token_family ON access_token (family_id) WHERE family_id IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE oauth_refresh_token (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash text NOT NULL UNIQUE,
        family_id uuid NOT NULL,
        client_id uuid NOT NULL REFERENCES oauth_client(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        scope text,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_oauth_refresh_token_family ON oauth_refresh_token (family_id)`);

    // Verification and password-reset codes: single use, expiring. A verification
    // carries the password chosen at sign-up, applied only when the code is used.
    await q.query(`
      CREATE TABLE user_token (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
        token_hash text NOT NULL UNIQUE,
        password_hash text,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_user_token_user_purpose ON user_token (user_id, purpose)`);

    // Invitations: workspace access granted before the invitee has an account.
    await q.query(
      `ALTER TABLE team_member ADD COLUMN invited_permissions jsonb NOT NULL DEFAULT '[]'::jsonb`,
    );
    await q.query(
      `CREATE INDEX ix_team_member_invited_email ON team_member (invited_email) WHERE member_id IS NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX uq_team_member_invite_token ON team_member (invite_token_hash) WHERE invite_token_hash IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX uq_team_member_invite_token`);
    await q.query(`DROP INDEX ix_team_member_invited_email`);
    await q.query(`ALTER TABLE team_member DROP COLUMN invited_permissions`);
    await q.query(`DROP TABLE user_token, oauth_refresh_token`);
    await q.query(`DROP INDEX ix_access_token_family`);
    await q.query(`DROP INDEX ix_access_token_client`);
    await q.query(`ALTER TABLE access_token DROP CONSTRAINT fk_access_token_client`);
    await q.query(`ALTER TABLE access_token DROP COLUMN family_id`);
    await q.query(`DROP TABLE oauth_authorization_code, oauth_client`);
  }
}
