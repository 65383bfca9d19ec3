import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Checkpoints of shipments, and the refresh schedule on shipments.
 *
 * `shipment.next_check_at` is when the shipment is refreshed next (null: never, for final
 * statuses and shipments without a tracking number). It defaults to now(), so a shipment
 * inserted by any path is tracked by the next refresh round even if nothing else triggers it.
 * The partial index holds only shipments still being tracked; refresh rounds walk it in order.
 * `tracking_attempts` counts consecutive checks that brought nothing new (refresh backoff);
 * `tracking_facts` keeps the provider's shipment-level facts (countries, destination carrier,
 * expected delivery) so a recomputation from pushed checkpoints does not lose them.
 */
export class TrackingCheckpoints1763850200000 implements MigrationInterface {
  name = 'TrackingCheckpoints1763850200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE shipment
        ADD COLUMN next_check_at timestamptz DEFAULT now(),
        ADD COLUMN tracking_attempts int NOT NULL DEFAULT 0,
        ADD COLUMN tracking_facts jsonb,
        ADD COLUMN last_tracked_at timestamptz`);
    await q.query(
      `CREATE INDEX ix_shipment_next_check_at ON shipment (next_check_at) WHERE next_check_at IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE tracking_checkpoint (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        shipment_id uuid NOT NULL REFERENCES shipment(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        external_id text NOT NULL,
        checkpoint_date timestamptz NOT NULL,
        status text NOT NULL,
        info text,
        location text,
        country_iso2 text,
        carrier text,
        rel text CHECK (rel IN ('origin', 'destination')),
        source text NOT NULL DEFAULT 'provider' CHECK (source IN ('provider', 'push')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Idempotent upserts: one row per checkpoint id reported for a shipment.
    await q.query(
      `CREATE UNIQUE INDEX uq_tracking_checkpoint_shipment_external ON tracking_checkpoint (shipment_id, external_id)`,
    );
    await q.query(
      `CREATE INDEX ix_tracking_checkpoint_shipment_date ON tracking_checkpoint (shipment_id, checkpoint_date, id)`,
    );
    await q.query(
      `CREATE INDEX ix_tracking_checkpoint_workspace_date ON tracking_checkpoint (workspace_id, checkpoint_date, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE tracking_checkpoint`);
    await q.query(`DROP INDEX ix_shipment_next_check_at`);
    await q.query(`
      ALTER TABLE shipment
        DROP COLUMN last_tracked_at,
        DROP COLUMN tracking_facts,
        DROP COLUMN tracking_attempts,
        DROP COLUMN next_check_at`);
  }
}
