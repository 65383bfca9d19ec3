import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lookups, background batches and exports.
 *
 * - Lookup indexes: shipments and orders are looked up within a workspace by e-mail
 *   (case-insensitive), phone number (by the trailing digits, through the reversed digit
 *   string so a suffix match is a prefix scan) and, for shipments, tracking number
 *   (case-insensitive).
 * - batch_job: a change_status_batch_async run of one user, with its state and result.
 * - export: a CSV export of one user; its file lives in the FileStorage under
 *   `storage_key`. Deleting the row (directly or through the user or workspace) queues
 *   the file for the media file sweeper, which removes keys no media row uses.
 */
export class LookupsBatchesExports1763860000000 implements MigrationInterface {
  name = 'LookupsBatchesExports1763860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX ix_shipment_lookup_email ON shipment (workspace_id, lower(email)) WHERE email IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX ix_shipment_lookup_phone ON shipment
         (workspace_id, reverse(regexp_replace(phone_number, '\\D', '', 'g')) text_pattern_ops)
         WHERE phone_number IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX ix_shipment_lookup_tracking_number ON shipment (workspace_id, upper(tracking_number))
         WHERE tracking_number IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX ix_order_lookup_email ON "order" (workspace_id, lower(email)) WHERE email IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX ix_order_lookup_phone ON "order"
         (workspace_id, reverse(regexp_replace(phone_number, '\\D', '', 'g')) text_pattern_ops)
         WHERE phone_number IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE batch_job (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        operation text NOT NULL CHECK (operation IN ('change_status')),
        entity text NOT NULL,
        status text NOT NULL DEFAULT 'queued'
          CHECK (status IN ('queued', 'running', 'done', 'failed')),
        target_status_id uuid REFERENCES status(id) ON DELETE SET NULL,
        record_ids uuid[] NOT NULL,
        total_count int NOT NULL,
        changed_count int NOT NULL DEFAULT 0,
        result jsonb,
        error text,
        attempts int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_batch_job_user_created ON batch_job (user_id, created_at, id)`);

    await q.query(`
      CREATE TABLE export (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
        workspace_id uuid REFERENCES workspace(id) ON DELETE CASCADE,
        entity text NOT NULL CHECK (entity IN ('shipments', 'orders')),
        format text NOT NULL DEFAULT 'csv' CHECK (format IN ('csv')),
        filters jsonb NOT NULL DEFAULT '{}'::jsonb,
        status text NOT NULL DEFAULT 'queued'
          CHECK (status IN ('queued', 'running', 'done', 'failed')),
        row_count int,
        size bigint,
        file_name text,
        storage_key text,
        error text,
        attempts int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_export_user_created ON export (user_id, created_at, id)`);
    await q.query(`CREATE INDEX ix_export_workspace ON export (workspace_id)`);
    await q.query(`
      CREATE FUNCTION export_queue_file_gc() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO media_file_gc (storage_key)
          SELECT DISTINCT storage_key FROM removed_export WHERE storage_key IS NOT NULL
          ON CONFLICT (storage_key) DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER export_queue_file_gc AFTER DELETE ON export
        REFERENCING OLD TABLE AS removed_export
        FOR EACH STATEMENT EXECUTE FUNCTION export_queue_file_gc()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE export`);
    await q.query(`DROP FUNCTION export_queue_file_gc()`);
    await q.query(`DROP TABLE batch_job`);
    await q.query(`DROP INDEX ix_order_lookup_phone, ix_order_lookup_email`);
    await q.query(
      `DROP INDEX ix_shipment_lookup_tracking_number, ix_shipment_lookup_phone, ix_shipment_lookup_email`,
    );
  }
}
