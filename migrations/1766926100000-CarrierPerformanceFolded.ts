import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  emptyFoldedSql,
  FOLDED_PERFORMANCE_TABLE,
  foldedEntriesSql,
  foldPerformanceSql,
  installFoldedPerformanceSql,
  PERFORMANCE_TABLE,
  retractFunctionSql,
} from '../src/predictions/aggregates.sql';

/**
 * Folded carrier performance rows in a fixed-width form (`carrier_performance_folded`:
 * counters as columns, transit and pickup latency histograms as cumulative counts), so that a
 * read of the carrier analytics touches the same number of values whatever the workspace's
 * volume (bench/README.md, issue 26). Every existing delta row is folded into it; the
 * retracting trigger's truncate empties it too. Down turns each folded row back into one
 * sparse delta row.
 */
export class CarrierPerformanceFolded1766926100000 implements MigrationInterface {
  name = 'CarrierPerformanceFolded1766926100000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of installFoldedPerformanceSql()) await q.query(sql);
    await q.query(
      foldPerformanceSql(
        `SELECT DISTINCT workspace_id, span, day, carrier, destination FROM ${PERFORMANCE_TABLE}`,
      ),
    );
    await q.query(`DELETE FROM ${FOLDED_PERFORMANCE_TABLE} f WHERE ${emptyFoldedSql('f')}`);
    await q.query(retractFunctionSql(true));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO ${PERFORMANCE_TABLE} (workspace_id, span, day, carrier, destination, idx, n)
       SELECT f.workspace_id, f.span, f.day, f.carrier, f.destination,
              array_agg(c.idx ORDER BY c.idx), array_agg(c.n ORDER BY c.idx)
         FROM ${FOLDED_PERFORMANCE_TABLE} f CROSS JOIN LATERAL (VALUES ${foldedEntriesSql('f')}) AS c(idx, n)
        WHERE c.n <> 0
        GROUP BY f.workspace_id, f.span, f.day, f.carrier, f.destination`,
    );
    await q.query(retractFunctionSql(false));
    await q.query(`DROP TABLE ${FOLDED_PERFORMANCE_TABLE}`);
  }
}
