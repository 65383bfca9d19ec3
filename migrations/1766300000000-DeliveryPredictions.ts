import { MigrationInterface, QueryRunner } from 'typeorm';
import { installAggregatesSql, uninstallAggregatesSql } from '../src/predictions/aggregates.sql';

/**
 * The aggregates delivery predictions and carrier analytics read (src/predictions, README
 * "Aggregates"): each shipment's contribution (`prediction_contribution`, removed with its
 * shipment, which takes its deltas away through a statement trigger), the team's delivery
 * statistics per back-off level (`delivery_stat`) and the workspaces' carrier performance per
 * day block (`carrier_performance_stat`), both as append-only deltas. New tables only: empty
 * until the tracking writer applies contributions (phase 2 also fills them for existing
 * shipments with `PredictionRecompute.rebuild`).
 */
export class DeliveryPredictions1766300000000 implements MigrationInterface {
  name = 'DeliveryPredictions1766300000000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of installAggregatesSql()) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of uninstallAggregatesSql()) await q.query(sql);
  }
}
