import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Real tracking providers (src/tracking/providers/remote):
 * - credentials.rejected_at / rejection_reason: the provider refused the credentials (401/403);
 *   set once (the team is notified then), cleared when the credentials are written again.
 * - shipment.tracking_error: why the last check failed (null once one succeeds).
 * - tracking_checkpoint.raw_status: the provider's own status word(s) of the checkpoint.
 * - shipment_remote_tracking: which credentials track a shipment's number, whether the number
 *   is registered there (aggregators), stopped (final status), and when a push last came. The
 *   push receiver finds shipments by (credentials_key, tracking_number).
 */
export class RemoteTrackingProviders1764100000000 implements MigrationInterface {
  name = 'RemoteTrackingProviders1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE credentials ADD COLUMN rejected_at timestamptz,
                   ADD COLUMN rejection_reason text`);
    await q.query(`ALTER TABLE shipment ADD COLUMN tracking_error text`);
    await q.query(`ALTER TABLE tracking_checkpoint ADD COLUMN raw_status text`);
    await q.query(`
      CREATE TABLE shipment_remote_tracking (
        shipment_id uuid PRIMARY KEY REFERENCES shipment (id) ON DELETE CASCADE,
        credentials_key text NOT NULL,
        tracking_number text NOT NULL,
        registered_at timestamptz,
        stopped_at timestamptz,
        last_push_at timestamptz
      )`);
    await q.query(`CREATE INDEX ix_shipment_remote_tracking_number
                     ON shipment_remote_tracking (credentials_key, tracking_number)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE shipment_remote_tracking`);
    await q.query(`ALTER TABLE tracking_checkpoint DROP COLUMN raw_status`);
    await q.query(`ALTER TABLE shipment DROP COLUMN tracking_error`);
    await q.query(`ALTER TABLE credentials DROP COLUMN rejected_at, DROP COLUMN rejection_reason`);
  }
}
