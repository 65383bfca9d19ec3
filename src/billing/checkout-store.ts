import { Injectable } from '@nestjs/common';
import { query, queryOne, type SqlRunner } from '../database/query';
import type { ChargeStatus } from '../integrations/storefront-app';

/** A storefront checkout as its return and webhook read it. */
export interface CheckoutRow {
  id: string;
  team_id: string;
  plan_id: string;
  external_id: string | null;
  return_url: string | null;
  installation: string | null;
  status: ChargeStatus | null;
  completed_at: Date | null;
}

/** A checkout at the billing provider (its hosted page). */
export interface ProviderCheckout {
  teamId: string;
  userId: string;
  provider: string;
  planId: string;
  externalId: string | null;
  url: string | null;
}

/** A storefront charge waiting for the merchant's approval. */
export interface StorefrontCheckout {
  id: string;
  teamId: string;
  userId: string;
  planId: string;
  chargeId: string;
  confirmationUrl: string;
  returnUrl: string;
  installation: string;
  status: ChargeStatus;
}

/** The billing_checkout table's SQL: checkouts started, and how storefront charges settle. */
@Injectable()
export class CheckoutStore {
  /** Whether the team started a checkout at the billing provider (it is a customer there). */
  async hasProviderCheckout(runner: SqlRunner, teamId: string): Promise<boolean> {
    const rows = await query(
      runner,
      `SELECT 1 FROM billing_checkout WHERE team_id = $1 AND provider = 'billing_provider' LIMIT 1`,
      [teamId],
    );
    return rows.length > 0;
  }

  async record(runner: SqlRunner, checkout: ProviderCheckout): Promise<void> {
    await query(
      runner,
      `INSERT INTO billing_checkout (team_id, user_id, provider, plan_id, external_id, url)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        checkout.teamId,
        checkout.userId,
        checkout.provider,
        checkout.planId,
        checkout.externalId,
        checkout.url,
      ],
    );
  }

  /** Records a storefront charge; false when a checkout has that charge already. */
  async recordStorefront(runner: SqlRunner, checkout: StorefrontCheckout): Promise<boolean> {
    const rows = await query(
      runner,
      `INSERT INTO billing_checkout (id, team_id, user_id, provider, plan_id, external_id, url,
              return_url, installation, status)
       VALUES ($1, $2, $3, 'storefront', $4, $5, $6, $7, $8, $9)
       ON CONFLICT (external_id) WHERE provider = 'storefront' AND external_id IS NOT NULL
       DO NOTHING RETURNING id`,
      [
        checkout.id,
        checkout.teamId,
        checkout.userId,
        checkout.planId,
        checkout.chargeId,
        checkout.confirmationUrl,
        checkout.returnUrl,
        checkout.installation,
        checkout.status,
      ],
    );
    return rows.length > 0;
  }

  /** A storefront checkout the merchant's browser may come back to (it has a returnUrl). */
  returning(runner: SqlRunner, id: string): Promise<CheckoutRow | undefined> {
    return queryOne<CheckoutRow>(
      runner,
      `SELECT id, team_id, plan_id, external_id, return_url, installation, status, completed_at
         FROM billing_checkout
        WHERE id = $1 AND provider = 'storefront' AND return_url IS NOT NULL`,
      [id],
    );
  }

  /** Spends the checkout's one return; false when it was spent already. */
  async spendReturn(runner: SqlRunner, id: string): Promise<boolean> {
    const rows = await query(
      runner,
      `WITH spent AS (UPDATE billing_checkout SET returned_at = now()
                       WHERE id = $1 AND returned_at IS NULL RETURNING id)
       SELECT id FROM spent`,
      [id],
    );
    return rows.length > 0;
  }

  /** The storefront checkout of a charge, locked for the transaction. */
  ofCharge(runner: SqlRunner, chargeId: string): Promise<CheckoutRow | undefined> {
    return queryOne<CheckoutRow>(
      runner,
      `SELECT id, team_id, status, completed_at FROM billing_checkout
        WHERE provider = 'storefront' AND external_id = $1 FOR UPDATE`,
      [chargeId],
    );
  }

  /** The checkout, locked for the transaction. */
  lock(runner: SqlRunner, id: string): Promise<CheckoutRow | undefined> {
    return queryOne<CheckoutRow>(
      runner,
      `SELECT id, team_id, plan_id, status, completed_at FROM billing_checkout
        WHERE id = $1 FOR UPDATE`,
      [id],
    );
  }

  /** The charge's latest status; the checkout is done from its first settled one. */
  async chargeChanged(runner: SqlRunner, id: string, status: ChargeStatus): Promise<void> {
    await query(
      runner,
      `UPDATE billing_checkout SET status = $2, completed_at = COALESCE(completed_at, now())
        WHERE id = $1`,
      [id, status],
    );
  }

  /** Settled with the charge's status. */
  async settled(runner: SqlRunner, id: string, status: ChargeStatus): Promise<void> {
    await query(
      runner,
      'UPDATE billing_checkout SET status = $2, completed_at = now() WHERE id = $1',
      [id, status],
    );
  }
}
