import { MigrationInterface, QueryRunner } from 'typeorm';
import { retractFunctionSql } from '../src/predictions/aggregates.sql';

/**
 * The retracting trigger of `prediction_contribution` (a deleted shipment's deltas taken away)
 * with the performance deltas counted per group before being spread over the block spans
 * (src/predictions/aggregates.sql.ts, `performanceDeltasSql`): the same deltas, fewer rows, as
 * the apply statement now writes them. Down leaves it: the earlier body computed the same.
 */
export class PerformanceDeltasCounted1766810000000 implements MigrationInterface {
  name = 'PerformanceDeltasCounted1766810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(retractFunctionSql(false));
  }

  async down(): Promise<void> {
    // Nothing to undo: the body before computed the same deltas, row by row.
  }
}
