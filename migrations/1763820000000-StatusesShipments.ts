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
 * Workspace statuses and shipments.
 *
 * Indexes: every list is scoped by one workspace_id, so each index leads with
 * it and then carries the sort key or filter of the spec's common queries
 * (default order created_at DESC, id DESC; tracking number; tracking status;
 * carriers; dates; status; order numbers through GIN). The remaining filters
 * (country names, address lines, names, company, review score, days
 * counters) are rare and narrow one workspace's rows, which the
 * (workspace_id, created_at) index already walks in order; they get no index
 * of their own so that writes stay cheap.
 */
export class StatusesShipments1763820000000 implements MigrationInterface {
  name = 'StatusesShipments1763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE status (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        entity text NOT NULL CHECK (entity IN ('shipments', 'orders')),
        code text NOT NULL,
        title text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_status_workspace_entity_code ON status (workspace_id, entity, code)`,
    );
    await q.query(
      `CREATE INDEX ix_status_workspace_created ON status (workspace_id, created_at, id)`,
    );
    await q.query(`CREATE INDEX ix_status_workspace_title ON status (workspace_id, title)`);

    await q.query(`
      CREATE TABLE shipment (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        tracking_number text,
        tracking_status text,
        order_numbers text[] NOT NULL DEFAULT '{}',
        email text,
        phone_number text,
        days_in_transit int,
        days_in_idle int,
        origin_carrier text,
        destination_carrier text,
        origin_country text,
        destination_country text,
        origin_country_iso2 text,
        destination_country_iso2 text,
        shipped_at timestamptz,
        expected_delivery_date timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        last_status_update timestamptz,
        review text,
        review_total_score double precision,
        external_source_integration text,
        external_source_sync_id text,
        fulfillment_integration text,
        fulfillment_sync_id text,
        ${ADDRESS_COLUMNS.map((c) => `address_${c} text,`).join('\n        ')}
        shipment_status_id uuid REFERENCES status(id) ON DELETE RESTRICT,
        external_source_integration_type text
      )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_shipment_workspace_tracking_number ON shipment (workspace_id, tracking_number)`,
    );
    const indexes: Array<[string, string]> = [
      ['created', 'created_at DESC, id DESC'],
      ['updated', 'updated_at DESC, id DESC'],
      ['tracking_status', 'tracking_status, created_at DESC, id DESC'],
      ['shipment_status', 'shipment_status_id, created_at DESC'],
      ['origin_carrier', 'origin_carrier, created_at DESC'],
      ['destination_carrier', 'destination_carrier'],
      ['shipped_at', 'shipped_at'],
      ['last_status_update', 'last_status_update'],
      ['expected_delivery', 'expected_delivery_date'],
      ['email', 'email'],
      ['phone', 'phone_number'],
      ['origin_country_iso2', 'origin_country_iso2'],
      ['destination_country_iso2', 'destination_country_iso2'],
      ['address_country_iso2', 'address_country_iso2'],
      ['address_postcode', 'address_postcode'],
      ['days_in_transit', 'days_in_transit'],
    ];
    for (const [name, columns] of indexes) {
      await q.query(
        `CREATE INDEX ix_shipment_workspace_${name} ON shipment (workspace_id, ${columns})`,
      );
    }
    await q.query(`CREATE INDEX ix_shipment_order_numbers ON shipment USING gin (order_numbers)`);
    // Deleting a status checks that no shipment still uses it.
    await q.query(`CREATE INDEX ix_shipment_status ON shipment (shipment_status_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE shipment`);
    await q.query(`DROP TABLE status`);
  }
}
