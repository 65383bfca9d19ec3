import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A revoked token family (a reused code or refresh token) is marked on its authorization
 * code, so tokens issued concurrently with the revocation cannot join it.
 */
export class OAuthCodeRevocation1763810000100 implements MigrationInterface {
  name = 'OAuthCodeRevocation1763810000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_authorization_code ADD COLUMN revoked_at timestamptz`);
    await q.query(
      `CREATE UNIQUE INDEX uq_oauth_authorization_code_family ON oauth_authorization_code (family_id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX uq_oauth_authorization_code_family`);
    await q.query(`ALTER TABLE oauth_authorization_code DROP COLUMN revoked_at`);
  }
}
