import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The merchant console's client (AdminConsoleClient) may use the refresh-token grant, so a
 * session outlives its one-hour access token. It stays public (no secret): src/auth lets a
 * first-party client refresh with its `client_id` only, rotation standing in for the secret.
 * Down: the refresh tokens it holds are refused again (the client lacks the grant).
 */
export class AdminConsoleRefreshTokens1767010000000 implements MigrationInterface {
  name = 'AdminConsoleRefreshTokens1767010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE oauth_client SET grants = '{authorization_code,refresh_token}' WHERE first_party`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE oauth_client SET grants = '{authorization_code}' WHERE first_party`);
  }
}
