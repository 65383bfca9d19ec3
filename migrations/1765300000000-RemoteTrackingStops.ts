import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stopping numbers at tracking providers (src/tracking/providers/remote/remote-tracking-stops.ts):
 * - remote_tracking_stop: numbers to stop at a credentials record (a final status, or the
 *   shipment moved to other credentials), one row per (credentials_key, tracking_number) until
 *   the provider stopped it or we gave up; `attempts` and `next_attempt_at` are the bounded
 *   retries of a failed stop (claimed with SKIP LOCKED, `next_attempt_at` doubling as lease).
 * - shipment_remote_tracking.carrier_code: the carrier a number was registered with, so that it
 *   can be stopped there after the shipment's carrier changed.
 */
export class RemoteTrackingStops1765300000000 implements MigrationInterface {
  name = 'RemoteTrackingStops1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE remote_tracking_stop (
        credentials_key text NOT NULL,
        tracking_number text NOT NULL,
        carrier_code text,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (credentials_key, tracking_number)
      )`);
    await q.query(`CREATE INDEX ix_remote_tracking_stop_due
                     ON remote_tracking_stop (next_attempt_at)`);
    await q.query(`ALTER TABLE shipment_remote_tracking ADD COLUMN carrier_code text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE shipment_remote_tracking DROP COLUMN carrier_code`);
    await q.query(`DROP TABLE remote_tracking_stop`);
  }
}
