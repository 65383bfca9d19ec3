import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the reference's clients send and look up (issue 12):
 * - order.order_type defaults to `customer`, the reference's default (store plugins send none).
 * - order_item.product_id / product_variant_id / external_product_link: the catalogue entries
 *   and store page of a line (product rows may go; the line stays).
 * - lookups by the store's id: `?externalSourceSyncId=..&externalSourceIntegration=..` on orders
 *   (per workspace), order items (per order, or per workspace), shipments (per workspace) and products (per team).
 * - user.photo_id: the photo notes (`userPhoto`) and memberships (`memberPhoto`) show.
 */
export class ClientCompatibility1764800000000 implements MigrationInterface {
  name = 'ClientCompatibility1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "order" ALTER COLUMN order_type SET DEFAULT 'customer'`);
    await q.query(`ALTER TABLE order_item
      ADD COLUMN product_id uuid REFERENCES product (id) ON DELETE SET NULL,
      ADD COLUMN product_variant_id uuid REFERENCES product_variant (id) ON DELETE SET NULL,
      ADD COLUMN external_product_link text`);
    await q.query(`CREATE INDEX ix_order_item_product ON order_item (product_id)
                     WHERE product_id IS NOT NULL`);
    await q.query(`CREATE INDEX ix_order_item_product_variant ON order_item (product_variant_id)
                     WHERE product_variant_id IS NOT NULL`);
    await q.query(`CREATE INDEX ix_order_external_sync ON "order"
                     (workspace_id, external_source_sync_id) WHERE external_source_sync_id IS NOT NULL`);
    await q.query(`CREATE INDEX ix_order_item_external_sync ON order_item
                     (workspace_id, external_source_sync_id) WHERE external_source_sync_id IS NOT NULL`);
    await q.query(`CREATE INDEX ix_shipment_external_sync ON shipment
                     (workspace_id, external_source_sync_id) WHERE external_source_sync_id IS NOT NULL`);
    await q.query(`CREATE INDEX ix_product_external_sync ON product
                     (team_id, external_source_sync_id) WHERE external_source_sync_id IS NOT NULL`);
    await q.query(
      `ALTER TABLE "user" ADD COLUMN photo_id uuid REFERENCES media (id) ON DELETE SET NULL`,
    );
    await q.query(`CREATE INDEX ix_user_photo ON "user" (photo_id) WHERE photo_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "user" DROP COLUMN photo_id`);
    await q.query(`DROP INDEX ix_product_external_sync`);
    await q.query(`DROP INDEX ix_shipment_external_sync`);
    await q.query(`DROP INDEX ix_order_item_external_sync`);
    await q.query(`DROP INDEX ix_order_external_sync`);
    await q.query(`ALTER TABLE order_item DROP COLUMN external_product_link,
                     DROP COLUMN product_variant_id, DROP COLUMN product_id`);
    await q.query(`ALTER TABLE "order" ALTER COLUMN order_type DROP DEFAULT`);
  }
}
