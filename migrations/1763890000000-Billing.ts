import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subscription billing: one subscription per team (plan, status, period end, the billing
 * provider's ids and a snapshot of the plan's entitlement capacities, so reads need no code
 * catalogue), the provider's webhook events by their id (idempotency), and the checkouts
 * started for a team.
 */
export class Billing1763890000000 implements MigrationInterface {
  name = 'Billing1763890000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE subscription (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES team (id) ON DELETE CASCADE,
        provider text NOT NULL CHECK (provider IN ('trial', 'billing_provider', 'storefront')),
        plan_id text NOT NULL,
        plan_name text NOT NULL,
        plan_type text NOT NULL,
        status text NOT NULL CHECK (status IN ('trialing', 'active', 'past_due', 'cancelled')),
        billing_period int,
        billing_period_unit text,
        expires_at timestamptz,
        provider_subscription_id text,
        provider_customer_id text,
        addons_qty_by_key jsonb NOT NULL DEFAULT '{}'::jsonb,
        entitlements jsonb NOT NULL,
        unpaid_invoices boolean NOT NULL DEFAULT false,
        has_scheduled_changes boolean NOT NULL DEFAULT false,
        scheduled_plan_id text,
        has_coupon_code boolean NOT NULL DEFAULT false,
        last_event_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_subscription_team UNIQUE (team_id)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_subscription_provider_subscription ON subscription (provider, provider_subscription_id) WHERE provider_subscription_id IS NOT NULL`,
    );
    // Kept when the team goes (SET NULL): a replayed event must still be recognised.
    await q.query(`
      CREATE TABLE billing_webhook_event (
        event_id text PRIMARY KEY,
        event_type text NOT NULL,
        team_id uuid REFERENCES team (id) ON DELETE SET NULL,
        occurred_at timestamptz,
        outcome text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_billing_webhook_event_team ON billing_webhook_event (team_id, received_at)`,
    );
    await q.query(`
      CREATE TABLE billing_checkout (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES team (id) ON DELETE CASCADE,
        user_id uuid REFERENCES "user" (id) ON DELETE SET NULL,
        provider text NOT NULL,
        plan_id text NOT NULL,
        external_id text,
        url text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX ix_billing_checkout_team ON billing_checkout (team_id, created_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE billing_checkout`);
    await q.query(`DROP TABLE billing_webhook_event`);
    await q.query(`DROP TABLE subscription`);
  }
}
