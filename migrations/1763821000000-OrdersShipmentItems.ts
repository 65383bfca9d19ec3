import { MigrationInterface, QueryRunner } from 'typeorm';

const ADDRESS_COLUMNS = [
  'address_line1',
  'address_line2',
  'city',
  'company',
  'country',
  'country_iso2',
  'first_name',
  'last_name',
  'postcode',
  'state',
];

/**
 * Orders, order items, shipment items and the shipment <-> order links.
 *
 * order_item and shipment_item carry their workspace_id (the order's, the
 * shipment's) so tenancy is one indexed equality. Order lists are scoped by
 * workspace and sorted by created_at by default; the spec's filters on
 * fulfilment, untracked shipments, status, type, totals and contact fields
 * each have a (workspace_id, ...) index. Address fields other than country
 * and postcode narrow one workspace's rows rarely and are served by the
 * created_at index walk; they get no index so that writes stay cheap.
 */
export class OrdersShipmentItems1763821000000 implements MigrationInterface {
  name = 'OrdersShipmentItems1763821000000';

  async up(q: QueryRunner): Promise<void> {
    const address = (prefix: string) =>
      ADDRESS_COLUMNS.map((c) => `${prefix}_${c} text,`).join('\n        ');
    await q.query(`
      CREATE TABLE "order" (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        order_number text,
        external_source_integration text,
        external_source_sync_id text,
        external_source_url text,
        subtotal numeric NOT NULL DEFAULT 0,
        total numeric NOT NULL DEFAULT 0,
        currency text NOT NULL DEFAULT 'USD',
        order_status_id uuid REFERENCES status(id) ON DELETE RESTRICT,
        order_type text NOT NULL CHECK (order_type IN ('customer', 'vendor')),
        email text,
        phone_number text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        ${address('shipping_address')}
        ${address('billing_address')}
        fulfillment_status text NOT NULL DEFAULT 'not_fulfilled'
          CHECK (fulfillment_status IN ('not_fulfilled', 'partial', 'fulfilled')),
        shipments_without_tracking_count int NOT NULL DEFAULT 0
      )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_order_workspace_order_number ON "order" (workspace_id, order_number)`,
    );
    const orderIndexes: Array<[string, string]> = [
      ['created', 'created_at DESC, id DESC'],
      ['updated', 'updated_at DESC, id DESC'],
      ['fulfillment', 'fulfillment_status, created_at DESC, id DESC'],
      ['untracked', 'shipments_without_tracking_count, created_at DESC'],
      ['status', 'order_status_id, created_at DESC'],
      ['type', 'order_type, created_at DESC'],
      ['total', 'total'],
      ['subtotal', 'subtotal'],
      ['email', 'email'],
      ['phone', 'phone_number'],
      ['shipping_country', 'shipping_address_country_iso2'],
      ['shipping_postcode', 'shipping_address_postcode'],
      ['billing_country', 'billing_address_country_iso2'],
    ];
    for (const [name, columns] of orderIndexes) {
      await q.query(
        `CREATE INDEX ix_order_workspace_${name} ON "order" (workspace_id, ${columns})`,
      );
    }
    await q.query(`CREATE INDEX ix_order_status ON "order" (order_status_id)`);

    await q.query(`
      CREATE TABLE order_item (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        order_id uuid NOT NULL REFERENCES "order"(id) ON DELETE CASCADE,
        product_name text,
        product_sku text,
        product_options jsonb NOT NULL DEFAULT '{}'::jsonb,
        qty int NOT NULL DEFAULT 0 CHECK (qty >= 0),
        price numeric NOT NULL DEFAULT 0,
        external_product_id text,
        external_source_sync_id text,
        external_source_integration text,
        image_url text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_order_item_order ON order_item (order_id, created_at, id)`);
    await q.query(
      `CREATE INDEX ix_order_item_workspace_created ON order_item (workspace_id, created_at, id)`,
    );

    await q.query(`
      CREATE TABLE shipment_item (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        shipment_id uuid NOT NULL REFERENCES shipment(id) ON DELETE CASCADE,
        order_item_id uuid NOT NULL REFERENCES order_item(id) ON DELETE CASCADE,
        qty int NOT NULL DEFAULT 0 CHECK (qty >= 0),
        external_source_sync_id text,
        external_source_integration text,
        fulfillment_integration text,
        fulfillment_sync_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_shipment_item_workspace_created ON shipment_item (workspace_id, created_at, id)`,
    );
    await q.query(
      `CREATE INDEX ix_shipment_item_shipment ON shipment_item (shipment_id, created_at, id)`,
    );
    // Also serves fulfilledQty: sum(qty) per order item.
    await q.query(
      `CREATE INDEX ix_shipment_item_order_item ON shipment_item (order_item_id) INCLUDE (qty)`,
    );
    await q.query(
      `CREATE INDEX ix_shipment_item_workspace_qty ON shipment_item (workspace_id, qty)`,
    );

    await q.query(`
      CREATE TABLE shipment_order (
        shipment_id uuid NOT NULL REFERENCES shipment(id) ON DELETE CASCADE,
        order_id uuid NOT NULL REFERENCES "order"(id) ON DELETE CASCADE,
        PRIMARY KEY (shipment_id, order_id)
      )`);
    await q.query(`CREATE INDEX ix_shipment_order_order ON shipment_order (order_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE shipment_order`);
    await q.query(`DROP TABLE shipment_item`);
    await q.query(`DROP TABLE order_item`);
    await q.query(`DROP TABLE "order"`);
  }
}
