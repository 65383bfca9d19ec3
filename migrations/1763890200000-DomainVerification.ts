import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Checks of tracking pages' custom domains (POST /domain/verify): what DNS and TLS said, and
 * by whom; the latest decides tracking_page.domain_enabled.
 */
export class DomainVerification1763890200000 implements MigrationInterface {
  name = 'DomainVerification1763890200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE domain_verification (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
        tracking_page_id uuid NOT NULL REFERENCES tracking_page (id) ON DELETE CASCADE,
        domain text NOT NULL,
        accessible boolean NOT NULL,
        ssl boolean NOT NULL,
        verified boolean NOT NULL,
        method text CHECK (method IN ('cname', 'txt')),
        records jsonb NOT NULL DEFAULT '{}'::jsonb,
        checked_by uuid REFERENCES "user" (id) ON DELETE SET NULL,
        checked_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_domain_verification_page ON domain_verification (tracking_page_id, checked_at)`,
    );
    await q.query(
      `CREATE INDEX ix_domain_verification_workspace ON domain_verification (workspace_id, checked_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE domain_verification`);
  }
}
