import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shipment indexes, reviewed against the lists at a million rows (bench/README.md, "Index
 * review"):
 * - `(workspace_id, origin_carrier, created_at DESC)` did not carry the id tie-breaker of
 *   every order, so the planner preferred walking the whole workspace in created order and
 *   filtering the carrier (5 600 rows read for a first page where ups shipments were older).
 *   With `id DESC` it answers the carrier filter in the default order directly.
 * - `(shipment_status_id)` serves only the foreign key check when a status is deleted; it is
 *   partial now, so shipments without a status (most of them) no longer pay for it.
 */
export class ShipmentIndexReview1764510000000 implements MigrationInterface {
  name = 'ShipmentIndexReview1764510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_shipment_workspace_origin_carrier`);
    await q.query(
      `CREATE INDEX ix_shipment_workspace_origin_carrier ON shipment (workspace_id, origin_carrier, created_at DESC, id DESC)`,
    );
    await q.query(`DROP INDEX ix_shipment_status`);
    await q.query(
      `CREATE INDEX ix_shipment_status ON shipment (shipment_status_id) WHERE shipment_status_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_shipment_status`);
    await q.query(`CREATE INDEX ix_shipment_status ON shipment (shipment_status_id)`);
    await q.query(`DROP INDEX ix_shipment_workspace_origin_carrier`);
    await q.query(
      `CREATE INDEX ix_shipment_workspace_origin_carrier ON shipment (workspace_id, origin_carrier, created_at DESC)`,
    );
  }
}
