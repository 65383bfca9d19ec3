import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['shipment', 'shipment_item'] as const;
const REFERENCES = ['external_source_integration', 'fulfillment_integration'] as const;
const UUID_AT_END = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/**
 * Workflow references of shipments and shipment items become foreign keys: the `/workflows/<id>`
 * IRIs stored as text turn into `<name>_id uuid` columns (null when the IRI names no existing
 * workflow; the workflow's deletion sets them null). `shipment.external_source_integration_type`
 * goes: it is read from the referenced workflow's type.
 */
export class ShipmentWorkflowReferences1763900000000 implements MigrationInterface {
  name = 'ShipmentWorkflowReferences1763900000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      for (const ref of REFERENCES) {
        await q.query(
          `ALTER TABLE ${table} ADD COLUMN ${ref}_id uuid REFERENCES workflow (id) ON DELETE SET NULL`,
        );
        // The full UUID shape, so a malformed leftover is dropped instead of failing the cast.
        await q.query(
          `UPDATE ${table} t SET ${ref}_id = wf.id
             FROM workflow wf
            WHERE wf.id = substring(lower(t.${ref}) from '${UUID_AT_END}')::uuid`,
        );
        await q.query(`ALTER TABLE ${table} DROP COLUMN ${ref}`);
        // Deleting a workflow sets the references to it null: found through this index.
        await q.query(
          `CREATE INDEX ix_${table}_${ref} ON ${table} (${ref}_id) WHERE ${ref}_id IS NOT NULL`,
        );
      }
    }
    await q.query(`ALTER TABLE shipment DROP COLUMN external_source_integration_type`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE shipment ADD COLUMN external_source_integration_type text`);
    for (const table of TABLES) {
      for (const ref of REFERENCES) {
        await q.query(`ALTER TABLE ${table} ADD COLUMN ${ref} text`);
        await q.query(
          `UPDATE ${table} SET ${ref} = '/workflows/' || ${ref}_id WHERE ${ref}_id IS NOT NULL`,
        );
        await q.query(`ALTER TABLE ${table} DROP COLUMN ${ref}_id`);
      }
    }
    await q.query(
      `UPDATE shipment s SET external_source_integration_type = wf.type
         FROM workflow wf
        WHERE s.external_source_integration = '/workflows/' || wf.id`,
    );
  }
}
