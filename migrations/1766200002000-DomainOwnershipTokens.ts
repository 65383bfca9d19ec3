import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom domains are proven by a TXT record holding a token of the tracking page (issue 22):
 * - `domain_token`: 128 random bits per page (hex), never shown except as the TXT value
 *   POST /domain/verify asks for; a CNAME to the service, or a page id, proves nothing.
 * - the domain is unique among verified pages only, so a claim nobody proved blocks nobody
 *   (the owner claims it beside a squatter and proves it); verification keeps one.
 * - a page whose domain changes is not verified for the new one until it is checked again
 *   (a trigger, whatever path writes the row; only a statement setting domain_enabled itself,
 *   which no API path does, decides otherwise).
 * Domains verified before keep their verdict until their next check, which needs the record.
 */
export class DomainOwnershipTokens1766200002000 implements MigrationInterface {
  name = 'DomainOwnershipTokens1766200002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE tracking_page
        ADD COLUMN domain_token text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '')`);
    await q.query(`DROP INDEX uq_tracking_page_domain`);
    await q.query(
      `CREATE UNIQUE INDEX uq_tracking_page_domain ON tracking_page (lower(domain))
        WHERE domain IS NOT NULL AND domain_enabled`,
    );
    await q.query(`
      CREATE FUNCTION tracking_page_domain_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.domain_enabled := false;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER tracking_page_domain_changed BEFORE UPDATE OF domain ON tracking_page
        FOR EACH ROW WHEN (lower(NEW.domain) IS DISTINCT FROM lower(OLD.domain)
                           AND NEW.domain_enabled IS NOT DISTINCT FROM OLD.domain_enabled)
        EXECUTE FUNCTION tracking_page_domain_changed()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tracking_page_domain_changed ON tracking_page`);
    await q.query(`DROP FUNCTION tracking_page_domain_changed()`);
    await q.query(`DROP INDEX uq_tracking_page_domain`);
    await q.query(
      `CREATE UNIQUE INDEX uq_tracking_page_domain ON tracking_page (lower(domain))
        WHERE domain IS NOT NULL`,
    );
    await q.query(`ALTER TABLE tracking_page DROP COLUMN domain_token`);
  }
}
