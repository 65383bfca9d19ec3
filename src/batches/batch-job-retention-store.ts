import { retentionStatements } from '../retention/retention-rule';

/**
 * Batch jobs done or failed go RETENTION_DAYS_EXPORTS after `finished_at`; queued and running
 * ones stay.
 */
export const BATCH_JOB_RETENTION = retentionStatements({
  table: 'batch_job',
  category: 'exports',
  where: `x.status IN ('done', 'failed') AND x.finished_at < $1`,
});
