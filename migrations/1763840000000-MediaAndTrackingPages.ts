import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Uploaded media (files on a FileStorage), tracking pages, and the workspace settings that
 * point at them (default tracking page, logo).
 */
export class MediaAndTrackingPages1763840000000 implements MigrationInterface {
  name = 'MediaAndTrackingPages1763840000000';

  async up(q: QueryRunner): Promise<void> {
    // A media row is visible to its uploader and, once attached, to its workspace's members.
    await q.query(`
      CREATE TABLE media (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid REFERENCES workspace(id) ON DELETE CASCADE,
        uploaded_by_id uuid REFERENCES "user"(id) ON DELETE SET NULL,
        storage_key text NOT NULL,
        file_path text NOT NULL,
        original_name text,
        mime_type text NOT NULL,
        size integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_media_workspace_created ON media (workspace_id, created_at)`);
    await q.query(
      `CREATE INDEX ix_media_uploaded_by_created ON media (uploaded_by_id, created_at)`,
    );
    await q.query(`CREATE INDEX ix_media_storage_key ON media (storage_key)`);
    // Stored files outlive their rows only until the sweeper sees them here. A statement trigger
    // also catches rows removed by FK cascades (workspace deletion), which no service sees.
    await q.query(`
      CREATE TABLE media_file_gc (
        storage_key text PRIMARY KEY,
        queued_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE FUNCTION media_queue_file_gc() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO media_file_gc (storage_key)
          SELECT DISTINCT storage_key FROM removed_media
          ON CONFLICT (storage_key) DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER media_queue_file_gc AFTER DELETE ON media
        REFERENCING OLD TABLE AS removed_media
        FOR EACH STATEMENT EXECUTE FUNCTION media_queue_file_gc()`);

    await q.query(`
      CREATE TABLE tracking_page (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        enabled boolean NOT NULL DEFAULT true,
        reviews_enabled boolean NOT NULL DEFAULT true,
        title text,
        subdomain text NOT NULL,
        domain text,
        domain_enabled boolean NOT NULL DEFAULT false,
        sidebar_field text,
        tracking_number_field text,
        builder jsonb NOT NULL DEFAULT '{}'::jsonb,
        dropshipper_settings jsonb NOT NULL DEFAULT '{}'::jsonb,
        custom_theme_id text,
        custom_theme jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Subdomains and custom domains are unique across the whole service.
    await q.query(`CREATE UNIQUE INDEX uq_tracking_page_subdomain ON tracking_page (subdomain)`);
    await q.query(
      `CREATE UNIQUE INDEX uq_tracking_page_domain ON tracking_page (lower(domain)) WHERE domain IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX ix_tracking_page_workspace_created ON tracking_page (workspace_id, created_at, id)`,
    );

    await q.query(`
      ALTER TABLE workspace
        ADD COLUMN default_tracking_page_id uuid REFERENCES tracking_page(id) ON DELETE SET NULL,
        ADD COLUMN logo_id uuid REFERENCES media(id) ON DELETE SET NULL`);
    await q.query(`
      ALTER TABLE workspace ALTER COLUMN email_settings
        SET DEFAULT '{"logo": null, "signature": null, "smtpCredentials": null}'::jsonb`);
    await q.query(`
      UPDATE workspace SET email_settings =
        '{"logo": null, "signature": null, "smtpCredentials": null}'::jsonb || email_settings`);
    // The background deletion picks scheduled workspaces; the flag is rare, keep the index small.
    await q.query(
      `CREATE INDEX ix_workspace_scheduled_for_delete ON workspace (updated_at) WHERE scheduled_for_delete`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_workspace_scheduled_for_delete`);
    await q.query(
      `ALTER TABLE workspace DROP COLUMN logo_id, DROP COLUMN default_tracking_page_id`,
    );
    await q.query(`ALTER TABLE workspace ALTER COLUMN email_settings SET DEFAULT '{}'::jsonb`);
    await q.query(`DROP TABLE tracking_page`);
    await q.query(`DROP TABLE media`);
    await q.query(`DROP FUNCTION media_queue_file_gc()`);
    await q.query(`DROP TABLE media_file_gc`);
  }
}
