import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A storefront checkout's return redirects the merchant's browser once (issue 22): when it
 * did. Checkouts settled before count as returned: their return answers a page from now on.
 */
export class BillingReturnOnce1766200001000 implements MigrationInterface {
  name = 'BillingReturnOnce1766200001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE billing_checkout ADD COLUMN returned_at timestamptz`);
    await q.query(
      `UPDATE billing_checkout SET returned_at = completed_at
        WHERE provider = 'storefront' AND completed_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE billing_checkout DROP COLUMN returned_at`);
  }
}
