import { Allow } from 'class-validator';
import { Documented } from '../hydra/validation/documented';
import { NotBlank } from '../hydra/validation/constraints';
import { Typed } from '../hydra/validation/input-types';

/** Every billing action names the team (only its owners and admins may act). */
export class TeamBillingInput {
  /** Id or IRI of the team. */
  @Typed('string') @NotBlank() teamId!: string;
}

/** `POST /billing/billing_provider/create_session`. */
export class PortalSessionInput extends TeamBillingInput {
  /** Where the portal sends the user back (absolute http(s) URL). */
  @Typed('string') redirectUrl?: string | null;
}

/** A paid plan of the catalogue (`starter`, `pro`, `business`). */
export class PlanChangeInput extends TeamBillingInput {
  @Typed('string') @NotBlank() planId!: string;
}

/** `POST /billing/billing_provider/get_subscription_estimate`. */
export class EstimateInput extends PlanChangeInput {
  /** `{addonKey: quantity}` of catalogue add-ons (0-1000 each). */
  @Typed('object') addonsQtyByKey?: Record<string, unknown> | null;
}

/** `POST /billing/billing_provider/created_hosted_page_checkout`. */
export class HostedCheckoutInput extends EstimateInput {
  /** Where the hosted page sends the user back (absolute http(s) URL). */
  @Typed('string') redirectUrl?: string | null;
  /** Accepted and not needed: a live subscription gets a change checkout, others a new one. */
  @Typed('string') intent?: string | null;
}

/** `POST /billing/storefront/checkout_subscription`. */
export class StorefrontCheckoutInput extends PlanChangeInput {
  /** Where the storefront sends the merchant back (absolute http(s) URL). */
  @Typed('string') @NotBlank() returnUrl!: string;
}

/**
 * `POST /billing/billing_provider/webhook`: the provider's event. Read by BillingWebhooks once
 * the signature over the raw body is checked (so nothing is judged before it).
 */
export class BillingWebhookInput {
  /** The provider's event id (idempotency key). */
  @Allow() id?: unknown;
  @Allow() event_type?: unknown;
  /** Unix seconds. */
  @Allow() occurred_at?: unknown;
  /** `{subscription, customer, ...}`. */
  @Allow() content?: unknown;
}

/**
 * `GET /billing/storefront/return`: the merchant's browser back from the storefront platform.
 * Read as sent (a browser gets a page for bad values, not an API error).
 */
export class StorefrontReturnInput {
  @Documented({
    type: 'string',
    format: 'uuid',
    required: true,
    description: 'The checkout (ours, in the return URL given to the storefront app).',
  })
  checkout?: unknown;
  @Documented({
    type: 'string',
    required: true,
    description: 'The charge the merchant approved or declined (added by the storefront platform).',
  })
  charge_id?: unknown;
}

/**
 * `POST /billing/storefront/webhook`: the storefront app's charge event. Read by
 * StorefrontBilling once the signature over the raw body is checked.
 */
export class StorefrontWebhookInput {
  /** The app's event id (idempotency key). */
  @Allow() id?: unknown;
  /** `recurring_charges/update`. */
  @Allow() topic?: unknown;
  /** ISO 8601. */
  @Allow() occurredAt?: unknown;
  /** The installation the charge belongs to. */
  @Allow() tokenId?: unknown;
  /** `{id, status, name, price, currency, interval, billingOn, trialEndsOn, test}`. */
  @Allow() charge?: unknown;
}
