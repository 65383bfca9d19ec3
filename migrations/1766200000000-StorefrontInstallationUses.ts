import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Storefront installation tokens register one account each (POST /integration/storefront/
 * register): the spent ones, as SHA-256 like every token, so a replay is refused on every node
 * even once the shop's link is gone. Installations linked before count as spent.
 */
export class StorefrontInstallationUses1766200000000 implements MigrationInterface {
  name = 'StorefrontInstallationUses1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE storefront_installation_use (
        token_hash text PRIMARY KEY,
        used_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      INSERT INTO storefront_installation_use (token_hash, used_at)
      SELECT encode(sha256(convert_to(external_id, 'UTF8')), 'hex'), created_at
        FROM integration_link WHERE kind = 'storefront'
      ON CONFLICT DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE storefront_installation_use`);
  }
}
