import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The GIN index on `shipment.order_numbers` without its pending list. With `fastupdate` (the
 * default) new entries wait in an unsorted list that every search reads in full until a
 * vacuum merges it: an order's create looks up the shipments carrying its number, and during
 * an import (thousands of new shipments between vacuums, or none where autovacuum is off) that
 * look-up read 68 000 pending entries, 8 ms each (bench/README.md, store sync). Each shipment
 * carries one or two numbers, so writing them into the index directly costs its INSERT little.
 * What is pending now is merged.
 */
export class OrderNumbersIndexWithoutPendingList1766990000000 implements MigrationInterface {
  name = 'OrderNumbersIndexWithoutPendingList1766990000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX ix_shipment_order_numbers SET (fastupdate = off)`);
    await q.query(`SELECT gin_clean_pending_list('ix_shipment_order_numbers'::regclass)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX ix_shipment_order_numbers RESET (fastupdate)`);
  }
}
