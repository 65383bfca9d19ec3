import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stopping numbers at tracking providers when their shipments or credentials go
 * (src/tracking/providers/remote/remote-tracking-stops.ts, credentials-retirement.ts):
 * - a statement trigger on shipment_remote_tracking queues a stop (remote_tracking_stop) for
 *   every registration deleted while still running at its provider. A trigger, because a
 *   shipment's registration goes with it through FK cascades (DELETE /shipments, batches,
 *   merges, workspace deletion, retention) that no application path sees, and the stop must be
 *   recorded in the deleting transaction: once the row is gone nothing else knows the number.
 *   Such stops are due at once ('-infinity': whatever a node's clock says); the upkeep pass
 *   sends them, outside the request.
 * - retired_tracking_credentials: what stopping needs (type, parameters, sealed secrets) of
 *   credentials deleted or moved to another account, kept under a new id until their queued
 *   stops ended (no foreign key: the team may be gone too).
 */
export class ProviderStopsOnDelete1765400000000 implements MigrationInterface {
  name = 'ProviderStopsOnDelete1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION remote_tracking_stop_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO remote_tracking_stop (credentials_key, tracking_number, carrier_code,
               next_attempt_at)
        SELECT DISTINCT ON (g.credentials_key, g.tracking_number)
               g.credentials_key, g.tracking_number, g.carrier_code, '-infinity'::timestamptz
          FROM gone g
         WHERE g.registered_at IS NOT NULL AND g.stopped_at IS NULL
        ON CONFLICT (credentials_key, tracking_number) DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER tr_shipment_remote_tracking_deleted
        AFTER DELETE ON shipment_remote_tracking
        REFERENCING OLD TABLE AS gone
        FOR EACH STATEMENT EXECUTE FUNCTION remote_tracking_stop_deleted()`);
    await q.query(`
      CREATE TABLE retired_tracking_credentials (
        id uuid PRIMARY KEY,
        team_id uuid,
        type text NOT NULL,
        parameters jsonb NOT NULL DEFAULT '{}',
        secrets_ciphertext text,
        retired_from uuid NOT NULL,
        retired_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE retired_tracking_credentials`);
    await q.query(`DROP TRIGGER tr_shipment_remote_tracking_deleted ON shipment_remote_tracking`);
    await q.query(`DROP FUNCTION remote_tracking_stop_deleted()`);
  }
}
