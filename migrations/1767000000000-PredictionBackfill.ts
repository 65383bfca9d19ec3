import { MigrationInterface, QueryRunner } from 'typeorm';

/** Queues every team with a shipment that has no contribution yet (its e2e spec runs it too). */
export const QUEUE_TEAMS_BEFORE_PREDICTIONS = `
  INSERT INTO prediction_backfill (team_id)
  SELECT DISTINCT w.team_id
    FROM shipment s JOIN workspace w ON w.id = s.workspace_id
   WHERE w.team_id IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM prediction_contribution c WHERE c.shipment_id = s.id)
  ON CONFLICT (team_id) DO NOTHING`;

/**
 * The queue of teams whose shipments predate delivery predictions (src/predictions,
 * `PredictionBackfill`): their history must be counted into the aggregates and their parcels
 * on the way given a window, once, in the background. Filled here with every team that has a
 * shipment without a contribution (a database upgraded from before predictions); a node with
 * background work takes one team at a time (lease, SKIP LOCKED) and records what it did.
 */
export class PredictionBackfill1767000000000 implements MigrationInterface {
  name = 'PredictionBackfill1767000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE prediction_backfill (
        team_id uuid PRIMARY KEY REFERENCES team (id) ON DELETE CASCADE,
        queued_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        lease_until timestamptz,
        finished_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        shipments integer,
        contributions integer,
        decided integer,
        error text
      )`);
    await q.query(`CREATE INDEX ix_prediction_backfill_pending ON prediction_backfill (queued_at)
      WHERE finished_at IS NULL`);
    await q.query(QUEUE_TEAMS_BEFORE_PREDICTIONS);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE prediction_backfill`);
  }
}
