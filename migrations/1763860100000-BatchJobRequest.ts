import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The request a batch job runs, as checked when it was queued: the status given by code
 * (resolved per workspace when the job runs) and the workspace it was limited to.
 */
export class BatchJobRequest1763860100000 implements MigrationInterface {
  name = 'BatchJobRequest1763860100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_job ADD COLUMN status_code text`);
    await q.query(
      `ALTER TABLE batch_job ADD COLUMN workspace_id uuid REFERENCES workspace(id) ON DELETE CASCADE`,
    );
    await q.query(`CREATE INDEX ix_batch_job_workspace ON batch_job (workspace_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch_job DROP COLUMN workspace_id, DROP COLUMN status_code`);
  }
}
