import { MigrationInterface, QueryRunner } from 'typeorm';
import { installCountsSql } from '../src/hydra/collection/maintained-counts.sql';

/**
 * Issue 26 phase 2: what a status change decides about predictions, stored on the shipment so
 * lists, filters and CSV compute nothing (src/predictions/README.md, "Phase 2"):
 * `delivery_prediction` (the window), `delivery_prediction_announced` (the window last
 * announced by `shipment.delivery_prediction_changed`), `attention` (primary code),
 * `attention_codes` and `attention_check_at` (when the AttentionSweeper looks again). The
 * workspace setting `attention_waiting_days` (default 3). `attention` joins the shipment's
 * maintained counts, so the count per workspace and per code is `hydra:totalItems` of
 * `?attention=` without a scan.
 */
export class ShipmentPredictionColumns1766730000000 implements MigrationInterface {
  name = 'ShipmentPredictionColumns1766730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE shipment
      ADD COLUMN delivery_prediction jsonb,
      ADD COLUMN delivery_prediction_announced jsonb,
      ADD COLUMN attention text,
      ADD COLUMN attention_codes text[] NOT NULL DEFAULT '{}',
      ADD COLUMN attention_check_at timestamptz`);
    await q.query(
      `ALTER TABLE shipment ADD CONSTRAINT ck_shipment_attention
         CHECK (attention IS NULL OR attention IN ('exception', 'stalled', 'late', 'waiting'))`,
    );
    await q.query(`CREATE INDEX ix_shipment_workspace_attention ON shipment (workspace_id, attention, created_at)
                    WHERE attention IS NOT NULL`);
    await q.query(`CREATE INDEX ix_shipment_attention_check ON shipment (attention_check_at)
                    WHERE attention_check_at IS NOT NULL`);
    await q.query(
      `ALTER TABLE workspace ADD COLUMN attention_waiting_days int NOT NULL DEFAULT 3
         CONSTRAINT ck_workspace_attention_waiting_days CHECK (attention_waiting_days BETWEEN 1 AND 60)`,
    );
    for (const sql of installCountsSql(counts(['tracking_status', 'origin_carrier', 'attention'])))
      await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of installCountsSql(counts(['tracking_status', 'origin_carrier'])))
      await q.query(sql);
    await q.query(`ALTER TABLE workspace DROP COLUMN attention_waiting_days`);
    await q.query(`DROP INDEX ix_shipment_attention_check`);
    await q.query(`DROP INDEX ix_shipment_workspace_attention`);
    await q.query(`ALTER TABLE shipment DROP COLUMN delivery_prediction,
      DROP COLUMN delivery_prediction_announced, DROP COLUMN attention,
      DROP COLUMN attention_codes, DROP COLUMN attention_check_at`);
  }
}

/** The shipment's counted columns, with the monthly volume (MonthlyShipmentCounts). */
function counts(columns: string[]) {
  return {
    table: 'shipment',
    scopeColumn: 'workspace_id',
    columns,
    derived: [
      {
        name: 'shipment_created_month',
        dimension: 'created_month',
        value: `to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM')`,
      },
    ],
  };
}
