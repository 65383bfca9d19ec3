import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A password reset or change revokes a user's live refresh tokens and deletes the OAuth clients
 * the account made (src/users/access-revocation.ts), in the transaction that holds the user
 * row: refresh tokens found by their user, and by their client for the cascade of a client's
 * deletion, through an index instead of a scan of every live token. oauth_authorization_code
 * gets none: the retention sweep keeps it to a few days of consents.
 *
 * Built CONCURRENTLY (outside a transaction) so token refreshes continue on a live database; a
 * leftover of an interrupted run (possibly INVALID) is dropped first.
 */
const INDEXES: ReadonlyArray<[name: string, definition: string]> = [
  ['ix_oauth_refresh_token_user_live', 'oauth_refresh_token (user_id) WHERE revoked_at IS NULL'],
  ['ix_oauth_refresh_token_client', 'oauth_refresh_token (client_id)'],
];

export class RefreshTokenRevocationIndexes1766100000000 implements MigrationInterface {
  name = 'RefreshTokenRevocationIndexes1766100000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const [name, definition] of INDEXES) {
      await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
      await q.query(`CREATE INDEX CONCURRENTLY ${name} ON ${definition}`);
    }
  }

  // Not CONCURRENTLY: TypeORM reverts inside a transaction whatever `transaction` says.
  async down(q: QueryRunner): Promise<void> {
    for (const [name] of [...INDEXES].reverse()) await q.query(`DROP INDEX IF EXISTS ${name}`);
  }
}
