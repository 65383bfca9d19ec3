import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Store sync (src/store-sync, README "Store sync"): the state of each store workflow run by
 * this service (`store_sync_state`: cursor, backfill, webhook subscriptions, the lease that
 * keeps one run at a time per workflow on every node, when the next periodic pull is due), the
 * records it imported by their store ids (`store_sync_record`, gone with the record), store
 * webhook deliveries and orders to import again (`store_sync_inbox`, de-duplicated by the
 * platform's delivery key), and the fulfillment events sent to Shopify (`store_sync_push`, the
 * "never twice" rule). Outbox deliveries get a `target` (null: a webhook or an e-mail as
 * before; `store`: tracking sent back to the store), workflow runs their counts.
 */
export class StoreSync1766500000000 implements MigrationInterface {
  name = 'StoreSync1766500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE store_sync_state (
        workflow_id uuid PRIMARY KEY REFERENCES workflow(id) ON DELETE CASCADE,
        platform text NOT NULL,
        active boolean NOT NULL DEFAULT false,
        interval_seconds int,
        next_run_at timestamptz,
        pull_requested_at timestamptz,
        changed_up_to timestamptz,
        backfilled_at timestamptz,
        webhook_url text,
        webhook_key text,
        webhook_subscriptions jsonb NOT NULL DEFAULT '[]'::jsonb,
        lease_owner uuid,
        lease_until timestamptz,
        run_id uuid,
        events_sent int NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_store_sync_state_due ON store_sync_state (next_run_at) WHERE active`,
    );

    await q.query(`
      CREATE TABLE store_sync_record (
        workflow_id uuid NOT NULL REFERENCES workflow(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('order', 'order_item', 'shipment')),
        store_order_id text NOT NULL,
        store_id text NOT NULL,
        order_id uuid REFERENCES "order"(id) ON DELETE CASCADE,
        order_item_id uuid REFERENCES order_item(id) ON DELETE CASCADE,
        shipment_id uuid REFERENCES shipment(id) ON DELETE CASCADE,
        digest text,
        tracking_number text,
        announce_initial boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workflow_id, store_order_id, kind, store_id),
        CONSTRAINT ck_store_sync_record_one CHECK (num_nonnulls(order_id, order_item_id, shipment_id) = 1)
      )`);
    await q.query(
      `CREATE INDEX ix_store_sync_record_order ON store_sync_record (order_id) WHERE order_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX ix_store_sync_record_order_item ON store_sync_record (order_item_id) WHERE order_item_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX ix_store_sync_record_shipment ON store_sync_record (shipment_id) WHERE shipment_id IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE store_sync_inbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workflow_id uuid NOT NULL REFERENCES workflow(id) ON DELETE CASCADE,
        dedup_key text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('order', 'retry', 'privacy')),
        store_order_id text,
        topic text,
        payload jsonb,
        received_at timestamptz NOT NULL DEFAULT now(),
        processed_at timestamptz,
        attempts int NOT NULL DEFAULT 0,
        last_error text,
        CONSTRAINT uq_store_sync_inbox UNIQUE (workflow_id, dedup_key)
      )`);
    await q.query(
      `CREATE INDEX ix_store_sync_inbox_pending ON store_sync_inbox (workflow_id, received_at) WHERE processed_at IS NULL`,
    );
    await q.query(
      `CREATE INDEX ix_store_sync_inbox_processed ON store_sync_inbox (processed_at) WHERE processed_at IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE store_sync_push (
        workflow_id uuid NOT NULL REFERENCES workflow(id) ON DELETE CASCADE,
        store_shipment_id text NOT NULL,
        status text NOT NULL,
        sent_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workflow_id, store_shipment_id, status)
      )`);

    await q.query(`ALTER TABLE event_delivery ADD COLUMN target text`);
    await q.query(`ALTER TABLE workflow_run ADD COLUMN counts jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE workflow_run DROP COLUMN counts`);
    await q.query(`DELETE FROM event_delivery WHERE target IS NOT NULL`);
    await q.query(`ALTER TABLE event_delivery DROP COLUMN target`);
    await q.query(`DROP TABLE store_sync_push`);
    await q.query(`DROP TABLE store_sync_inbox`);
    await q.query(`DROP TABLE store_sync_record`);
    await q.query(`DROP TABLE store_sync_state`);
  }
}
