import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A rotated refresh token names the token it replaced, so one presented again moments after
 * its rotation (the client never received the answer) can be told from a stolen copy: within
 * the reuse interval, and while the token it was replaced by is still unused, it is rotated
 * again instead of revoking its family (src/auth/oauth-model.ts). No foreign key: retention
 * deletes a predecessor before its successor, and a dangling id only ends that allowance.
 * The index holds unused tokens only, the ones that check looks for.
 */
export class RefreshTokenSuccessors1767020000000 implements MigrationInterface {
  name = 'RefreshTokenSuccessors1767020000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_refresh_token ADD COLUMN replaces uuid`);
    await q.query(
      `CREATE INDEX ix_oauth_refresh_token_replaces ON oauth_refresh_token (replaces)
        WHERE replaces IS NOT NULL AND used_at IS NULL AND revoked_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_refresh_token DROP COLUMN replaces`);
  }
}
