import { Documented } from '../hydra/validation/documented';
import type { WebhookOutcome } from './billing-webhooks';

/** The provider's self-service portal session (its own snake_case names, as the reference). */
export class BillingProviderSession {
  @Documented({ type: 'string', nullable: true, required: true }) id!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) token!: string | null;
  @Documented({ type: 'string', nullable: true, required: true, description: 'The portal URL.' })
  access_url!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) status!: string | null;
  @Documented({ type: 'integer', nullable: true, required: true, description: 'Unix seconds.' })
  created_at!: number | null;
  @Documented({ type: 'integer', nullable: true, required: true, description: 'Unix seconds.' })
  expires_at!: number | null;
  @Documented({ type: 'string', nullable: true, required: true }) object!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) customer_id!: string | null;
}

/** The provider's hosted checkout page (its own snake_case names, as the reference). */
export class BillingProviderHostedPage {
  @Documented({ type: 'string', nullable: true, required: true }) id!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) type!: string | null;
  @Documented({ type: 'string', nullable: true, required: true, description: 'The page to open.' })
  url!: string | null;
  @Documented({ type: 'string', nullable: true, required: true }) state!: string | null;
  @Documented({ type: 'boolean', nullable: true, required: true }) embed!: boolean | null;
  @Documented({ type: 'integer', nullable: true, required: true, description: 'Unix seconds.' })
  created_at!: number | null;
  @Documented({ type: 'integer', nullable: true, required: true, description: 'Unix seconds.' })
  expires_at!: number | null;
  @Documented({ type: 'integer', nullable: true, required: true, description: 'Unix seconds.' })
  updated_at!: number | null;
  @Documented({ type: 'integer', nullable: true, required: true })
  resource_version!: number | null;
  @Documented({ type: 'string', nullable: true, required: true }) object!: string | null;
}

/** One line of an estimated invoice. */
export class EstimateLine {
  @Documented({ type: 'string', nullable: true, required: true }) description!: string | null;
  @Documented({
    type: 'string',
    nullable: true,
    required: true,
    description: 'The catalogue item.',
  })
  entityId!: string | null;
  @Documented({ type: 'integer', nullable: true, required: true }) quantity!: number | null;
  @Documented({ type: 'integer', nullable: true, required: true, description: 'In cents.' })
  amount!: number | null;
}

/** The next invoice of a plan change or a new subscription, as the provider estimates it. */
export class SubscriptionEstimate {
  @Documented({ type: 'string', format: 'date-time', nullable: true, required: true })
  createdAt!: string | null;
  @Documented({ type: 'string', format: 'date-time', nullable: true, required: true })
  nextBillingAt!: string | null;
  @Documented({ type: 'integer', nullable: true, required: true, description: 'In cents.' })
  nextTotal!: number | null;
  @Documented({ type: 'string', nullable: true, required: true }) currencyCode!: string | null;
  @Documented({ type: 'array', of: () => EstimateLine, required: true })
  estimateItems!: EstimateLine[];
}

/** Where the merchant approves a storefront app charge. */
export class StorefrontSubscriptionCheckout {
  @Documented({ type: 'string', format: 'uri', required: true }) confirmationUrl!: string;
}

const OUTCOMES: readonly WebhookOutcome[] = [
  'applied',
  'duplicate',
  'stale',
  'ignored',
  'unknown_team',
  'unknown_plan',
  'unknown_charge',
];

/** What a signed billing event did (recorded once per event id). */
export class WebhookReceipt {
  @Documented({ type: 'string', required: true }) eventId!: string;
  @Documented({ type: 'string', enum: OUTCOMES, required: true }) outcome!: WebhookOutcome;
}

const MAYBE = { nullable: true, required: true } as const;

/** A team's subscription, as its `subscription` property shows it (team-billing-sql.ts). */
export class TeamSubscription {
  @Documented({
    type: 'string',
    required: true,
    description: 'The team’s IRI with the fragment `#subscription` (no route of its own).',
  })
  '@id'!: string;
  @Documented({ type: 'string', enum: ['Subscription'], required: true }) '@type'!: string;
  @Documented({ type: 'string', format: 'uuid', required: true }) id!: string;
  @Documented({ type: 'string', ...MAYBE, description: 'The provider’s subscription id.' })
  cbId!: string | null;
  @Documented({ type: 'string', required: true }) status!: string;
  @Documented({ type: 'string', ...MAYBE }) planType!: string | null;
  @Documented({ type: 'string', ...MAYBE }) planId!: string | null;
  @Documented({ type: 'string', ...MAYBE }) planName!: string | null;
  @Documented({ type: 'object', ...MAYBE, description: 'Add-on key -> quantity.' })
  addonsQtyByKey!: Record<string, number> | null;
  @Documented({ type: 'integer', ...MAYBE }) billingPeriod!: number | null;
  @Documented({ type: 'string', ...MAYBE }) billingPeriodUnit!: string | null;
  @Documented({ type: 'string', format: 'date-time', ...MAYBE }) expiresAt!: string | null;
  @Documented({ type: 'boolean', ...MAYBE }) unpaidInvoices!: boolean | null;
  @Documented({ type: 'boolean', ...MAYBE }) hasScheduledChanges!: boolean | null;
  @Documented({ type: 'string', ...MAYBE }) scheduledPlanId!: string | null;
  @Documented({ type: 'boolean', ...MAYBE }) hasCouponCode!: boolean | null;
}
