import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * In-app digests of the prediction and attention events (src/predictions/attention-digest.ts):
 * one row per workspace and hour digested, so that of several nodes one notifies; and an
 * index that finds an hour's events of those types without reading the others.
 */
export class AttentionDigests1766830000000 implements MigrationInterface {
  name = 'AttentionDigests1766830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE attention_digest (
        workspace_id uuid NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
        period_start timestamptz NOT NULL,
        notified_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, period_start)
      )`);
    await q.query(`CREATE INDEX ix_outbox_event_prediction_events ON outbox_event (created_at)
      WHERE type IN ('shipment.delivery_prediction_changed', 'shipment.exception',
                     'shipment.stalled', 'shipment.late', 'shipment.waiting')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_outbox_event_prediction_events`);
    await q.query(`DROP TABLE attention_digest`);
  }
}
