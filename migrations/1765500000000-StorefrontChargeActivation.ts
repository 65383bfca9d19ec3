import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Storefront charges activate the team's plan (src/billing/storefront-billing.ts):
 * - a storefront checkout keeps where the client wants the merchant back (`return_url`), the
 *   installation the charge was made through, the charge's last known status and when the
 *   return or a webhook settled it (`completed_at`). A charge id is one checkout's: unique.
 *   Checkouts made before keep no return URL (the platform sent those merchants straight to
 *   the client) and are pending until a webhook says otherwise.
 * - webhook events are recorded once per sender (`provider`): the billing provider's and the
 *   storefront app's event ids are not from one namespace.
 */
export class StorefrontChargeActivation1765500000000 implements MigrationInterface {
  name = 'StorefrontChargeActivation1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE billing_checkout
        ADD COLUMN return_url text,
        ADD COLUMN installation text,
        ADD COLUMN status text CHECK (status IN
          ('pending', 'active', 'frozen', 'declined', 'expired', 'cancelled')),
        ADD COLUMN completed_at timestamptz`);
    await q.query(`UPDATE billing_checkout SET status = 'pending' WHERE provider = 'storefront'`);
    await q.query(
      `CREATE UNIQUE INDEX uq_billing_checkout_storefront_charge ON billing_checkout (external_id)
        WHERE provider = 'storefront' AND external_id IS NOT NULL`,
    );
    await q.query(
      `ALTER TABLE billing_webhook_event ADD COLUMN provider text NOT NULL DEFAULT 'billing_provider'`,
    );
    await q.query(`ALTER TABLE billing_webhook_event ALTER COLUMN provider DROP DEFAULT`);
    await q.query(`ALTER TABLE billing_webhook_event DROP CONSTRAINT billing_webhook_event_pkey`);
    await q.query(`ALTER TABLE billing_webhook_event ADD PRIMARY KEY (provider, event_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM billing_webhook_event WHERE provider <> 'billing_provider'`);
    await q.query(`ALTER TABLE billing_webhook_event DROP CONSTRAINT billing_webhook_event_pkey`);
    await q.query(`ALTER TABLE billing_webhook_event ADD PRIMARY KEY (event_id)`);
    await q.query(`ALTER TABLE billing_webhook_event DROP COLUMN provider`);
    await q.query(`DROP INDEX uq_billing_checkout_storefront_charge`);
    await q.query(`
      ALTER TABLE billing_checkout
        DROP COLUMN return_url, DROP COLUMN installation, DROP COLUMN status,
        DROP COLUMN completed_at`);
  }
}
