import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  countTablesSql,
  dropCountTablesSql,
  installCountsSql,
  uninstallCountsSql,
} from '../src/hydra/collection/maintained-counts.sql';

/**
 * Maintained counts of shipments per workspace: all of them, by tracking status and by origin
 * carrier (`counts` of the Shipment resource). `hydra:totalItems` of the lists filtered by
 * nothing or by one of these reads a few delta rows instead of counting up to a million index
 * entries. The backfill runs under the triggers' lock, so the counts start exact.
 */
export class MaintainedCounts1764500000000 implements MigrationInterface {
  name = 'MaintainedCounts1764500000000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of countTablesSql()) await q.query(sql);
    for (const sql of installCountsSql({
      table: 'shipment',
      scopeColumn: 'workspace_id',
      columns: ['tracking_status', 'origin_carrier'],
    }))
      await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of uninstallCountsSql('shipment')) await q.query(sql);
    for (const sql of dropCountTablesSql()) await q.query(sql);
  }
}
