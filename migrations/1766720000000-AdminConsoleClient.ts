import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The merchant console's OAuth client (src/admin-console, README "The API"): a first-party
 * public client, `client_id=admin-console`, owned by no account and holding no secret (the
 * stored hash matches no secret: only the PKCE exchange of the authorization-code grant
 * authenticates it). Its redirect URI is `<origin>/admin/` of whichever origin the request
 * came to (checked by src/auth against the request, as `/admin/` here). No refresh tokens.
 */
export class AdminConsoleClient1766720000000 implements MigrationInterface {
  name = 'AdminConsoleClient1766720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_client ADD COLUMN first_party boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE oauth_client ALTER COLUMN user_id DROP NOT NULL`);
    await q.query(
      `ALTER TABLE oauth_client ADD CONSTRAINT ck_oauth_client_owner CHECK (first_party OR user_id IS NOT NULL)`,
    );
    await q.query(
      `INSERT INTO oauth_client (name, redirect_uris, public_id, secret_hash, grants, first_party)
       VALUES ('Merchant console', '{/admin/}', 'admin-console', '-', '{authorization_code}', true)
       ON CONFLICT (public_id) DO NOTHING`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM oauth_client WHERE first_party`);
    await q.query(`ALTER TABLE oauth_client DROP CONSTRAINT ck_oauth_client_owner`);
    await q.query(`ALTER TABLE oauth_client ALTER COLUMN user_id SET NOT NULL`);
    await q.query(`ALTER TABLE oauth_client DROP COLUMN first_party`);
  }
}
