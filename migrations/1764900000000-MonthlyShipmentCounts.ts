import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  dropDerivedCountsSql,
  installCountsSql,
} from '../src/hydra/collection/maintained-counts.sql';

/**
 * Shipments per workspace and month of creation (UTC), kept by the shipment table's count
 * trigger beside the lists' counts (a derived count, `shipment_created_month`): the plans'
 * monthly volume (src/billing, MONTHLY_SHIPMENTS) reads a few rows instead of counting the
 * month's shipments of the team on every create. Reinstalls the trigger with it and backfills
 * under the trigger's lock, so the counts start exact.
 */
export class MonthlyShipmentCounts1764900000000 implements MigrationInterface {
  name = 'MonthlyShipmentCounts1764900000000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of installCountsSql({
      table: 'shipment',
      scopeColumn: 'workspace_id',
      columns: ['tracking_status', 'origin_carrier'],
      derived: [
        {
          name: 'shipment_created_month',
          dimension: 'created_month',
          value: `to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM')`,
        },
      ],
    }))
      await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of installCountsSql({
      table: 'shipment',
      scopeColumn: 'workspace_id',
      columns: ['tracking_status', 'origin_carrier'],
    }))
      await q.query(sql);
    for (const sql of dropDerivedCountsSql(['shipment_created_month'])) await q.query(sql);
  }
}
