import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { ApiError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { isUuid } from '../hydra/core/identifiers';
import { IntegrationLinkStore } from '../integrations/integration-link-store';
import {
  CHARGE_STATUSES,
  ChargeStatus,
  RecurringChargeState,
  STOREFRONT_APP,
  StorefrontApp,
  StorefrontAppRefusal,
  StorefrontAppUnavailable,
  chargeStateOf,
} from '../integrations/storefront-app';
import { link } from '../mail/links';
import { publicBaseUrl } from '../config/public-base-url';
import { verifiedDomainsOfTeam } from '../tracking-pages/verified-domains';
import {
  BillingWebhooks,
  WebhookEvent,
  WebhookOutcome,
  eventIdOf,
  eventInstant,
} from './billing-webhooks';
import { counterpartCall } from './counterpart-call';
import { Plan, capacitiesOf, planById, priceOf } from './plan-catalogue';
import { originsOf, returnUrlAllowed } from './return-url-policy';
import { CheckoutStore, type CheckoutRow } from './checkout-store';
import type { SubscriptionStatus } from './subscription-state';
import { SubscriptionStore } from './subscription-store';

export const STOREFRONT_SIGNATURE_HEADER = 'x-storefront-hmac-sha256';

/** Where the storefront platform sends the merchant back after the charge's confirmation. */
export const STOREFRONT_RETURN_PATH = '/billing/storefront/return';

/** The storefront app's webhook signature: base64 of the HMAC-SHA256 of the raw body. */
export function storefrontSignature(secret: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

/** The `subscription=` value the client's returnUrl gets, by the charge's status. */
export const RETURN_OUTCOMES: Record<ChargeStatus, string> = {
  active: 'active',
  frozen: 'past_due',
  pending: 'pending',
  declined: 'declined',
  expired: 'expired',
  cancelled: 'cancelled',
};

/** The team's subscription status a charge status means; null: it says nothing new. */
const SUBSCRIPTION_STATUSES: Record<ChargeStatus, SubscriptionStatus | null> = {
  active: 'active',
  frozen: 'past_due',
  declined: 'cancelled',
  expired: 'cancelled',
  cancelled: 'cancelled',
  pending: null,
};

/** Charge statuses that put the team on the checkout's plan (frozen: dunning, still live). */
const GRANTING: ReadonlySet<ChargeStatus> = new Set(['active', 'frozen']);

/** What the return answers the merchant's browser: the client's returnUrl, or a page. */
export type ReturnAnswer =
  { redirect: string } | { status: number; title: string; message: string };

/**
 * Subscriptions billed through the storefront app, as the storefront platform bills apps:
 *
 * 1. a checkout creates a recurring charge for the team's shop, whose return URL is ours
 *    (`/billing/storefront/return?checkout=<id>`); the checkout keeps the client's returnUrl;
 * 2. the merchant approves (or declines) it on the platform, which sends the browser to our
 *    return URL with `charge_id`. The return reads the charge from the app (never trusting the
 *    browser's word) and, when it is active, puts the team on the checkout's plan and marks
 *    the checkout done in one transaction; then redirects to the client's returnUrl with
 *    `subscription=<outcome>`. A settled checkout answers its outcome again without a call.
 * 3. later changes of the charge (frozen, active again, cancelled...) arrive as signed
 *    webhooks, recorded once in the billing webhook event log. An approval whose browser never
 *    came back is settled by its webhook the same way as by the return.
 *
 * The team's subscription follows only the charge it was activated from: events of a charge
 * the team has since replaced (the platform cancels it when a newer one is approved) change
 * nothing.
 */
@Injectable()
export class StorefrontBilling {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(STOREFRONT_APP) private readonly storefront: StorefrontApp,
    private readonly webhooks: BillingWebhooks,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly checkouts: CheckoutStore,
    private readonly subscriptions: SubscriptionStore,
    private readonly links: IntegrationLinkStore,
  ) {}

  /**
   * A subscription charge through the storefront app, for a team whose shop installed it: the
   * merchant confirms it on the storefront platform at `confirmationUrl`. Nothing is recorded
   * unless the app created the charge.
   */
  async checkout(
    principal: Principal,
    teamId: string,
    plan: Plan,
    returnUrl: string,
  ): Promise<{ confirmationUrl: string }> {
    const shop = await this.links.teamLink(this.dataSource, teamId, 'storefront');
    if (!shop) {
      throw ValidationError.of(
        'teamId',
        'This team has no storefront installation: install the storefront app first.',
        ViolationCodes.invalid,
      );
    }
    const current = await this.subscriptions.find(this.dataSource, teamId);
    if (current?.live && current.provider === 'billing_provider') {
      throw ValidationError.of(
        'teamId',
        'This team is billed through the billing provider; change its plan there.',
        ViolationCodes.invalid,
      );
    }
    if (!(await this.mayReturnTo(teamId, returnUrl)))
      throw ValidationError.of(
        'returnUrl',
        `The return URL must be on this service (${new URL(publicBaseUrl(this.config)).origin}) or on a verified custom domain of the team.`,
        ViolationCodes.invalid,
      );
    if (!this.storefront.configured)
      throw new ApiError(503, 'No storefront app is configured on this server.');
    const checkoutId = randomUUID();
    const charge = await this.callStorefront(() =>
      this.storefront.createRecurringCharge(shop.externalId, {
        name: `${plan.name} plan`,
        price: (priceOf(plan) / 100).toFixed(2),
        currency: plan.currency,
        interval: plan.billingPeriodUnit === 'year' ? 'annual' : 'every_30_days',
        trialDays: 0,
        returnUrl: link(this.config, STOREFRONT_RETURN_PATH, { checkout: checkoutId }),
        test: !this.config.isProduction,
      }),
    );
    const status = CHARGE_STATUSES.find((s) => s === charge.status) ?? 'pending';
    const inserted = await this.checkouts.recordStorefront(this.dataSource, {
      id: checkoutId,
      teamId,
      userId: principal.userId,
      planId: plan.id,
      chargeId: charge.id,
      confirmationUrl: charge.confirmationUrl,
      returnUrl,
      installation: shop.externalId,
      status,
    });
    if (!inserted)
      throw new ApiError(502, 'The storefront app answered a charge it had already given.');
    return { confirmationUrl: charge.confirmationUrl };
  }

  /**
   * The merchant's browser back from the platform: `checkout` (ours) and `charge_id` (the
   * platform's) must name the same charge, else nothing is read or changed (400 without them,
   * 404 when they do not match a checkout).
   */
  async returnFromPlatform(checkoutId: unknown, chargeId: unknown): Promise<ReturnAnswer> {
    if (typeof checkoutId !== 'string' || checkoutId === '')
      return page(400, 'Invalid link', 'The link does not name a checkout.');
    if (typeof chargeId !== 'string' || chargeId === '')
      return page(400, 'Invalid link', 'The storefront did not say which charge this is.');
    const unknown = page(404, 'Unknown checkout', 'No subscription checkout matches this charge.');
    if (!isUuid(checkoutId) || chargeId.length > 255) return unknown;
    const checkout = await this.checkouts.returning(this.dataSource, checkoutId);
    if (!checkout || checkout.external_id !== chargeId || !checkout.installation) return unknown;
    const back = (status: ChargeStatus | null) => this.back(checkout, status);
    if (checkout.completed_at) return back(checkout.status);
    if (!this.storefront.configured)
      return page(503, 'Billing unavailable', 'No storefront app is configured on this server.');
    let charge: RecurringChargeState | null;
    try {
      charge = await this.storefront.recurringCharge(checkout.installation, chargeId);
    } catch (error) {
      if (error instanceof StorefrontAppUnavailable || error instanceof StorefrontAppRefusal)
        return page(
          502,
          'Storefront app unavailable',
          'The charge could not be confirmed with the storefront app. Reload this page in a moment to try again.',
        );
      throw error;
    }
    if (!charge)
      return page(502, 'Unknown charge', 'The storefront app does not know this charge.');
    const found = charge;
    const settled = await this.dataSource.transaction((em) =>
      this.settle(em, checkout.id, found, null),
    );
    if (settled === 'unknown_plan')
      return page(409, 'Plan unavailable', 'The plan of this checkout is no longer offered.');
    return back(settled.status);
  }

  /**
   * The browser back to the checkout's returnUrl with the outcome, once: the first return of a
   * settled checkout spends it (a pending one may come back again). A spent return, or a
   * returnUrl this service may not send browsers to (stored before the rule, or a domain no
   * longer verified), answers a page with the outcome instead of a redirect.
   */
  private async back(checkout: CheckoutRow, status: ChargeStatus | null): Promise<ReturnAnswer> {
    const outcome = RETURN_OUTCOMES[status ?? 'pending'];
    const done = (why: string) =>
      page(200, 'Subscription checkout', `The subscription is ${outcome}. ${why}`);
    if (!(await this.mayReturnTo(checkout.team_id, checkout.return_url!)))
      return done('Go back to the app to continue.');
    if (status !== null && status !== 'pending') {
      if (!(await this.checkouts.spendReturn(this.dataSource, checkout.id)))
        return done('This link has been used already: go back to the app.');
    }
    return { redirect: withOutcome(checkout.return_url!, outcome) };
  }

  /** The service's own origins, or a custom domain the team verified (no open redirect). */
  private async mayReturnTo(teamId: string, url: string): Promise<boolean> {
    const own = originsOf([publicBaseUrl(this.config), this.config.publicTrackingBaseUrl]);
    return returnUrlAllowed(url, own, await verifiedDomainsOfTeam(this.dataSource, teamId));
  }

  /** 403 unless the body is signed with STOREFRONT_APP_WEBHOOK_SECRET. */
  authenticate(rawBody: Buffer | undefined, header: string | undefined): void {
    this.webhooks.verify(this.config.storefrontAppWebhookSecret, rawBody, header, 'base64');
  }

  /** A signed charge event, applied once (its id recorded with the billing events). */
  async receive(
    body: Record<string, unknown>,
  ): Promise<{ eventId: string; outcome: WebhookOutcome }> {
    const occurredAt = eventInstant(body.occurredAt);
    const event: WebhookEvent = {
      eventId: eventIdOf(body.id),
      eventType: typeof body.topic === 'string' ? body.topic.slice(0, 255) : 'unknown',
      occurredAt,
    };
    const charge = chargeStateOf(body.charge);
    return this.webhooks.recordOnce('storefront', event, (em) =>
      charge ? this.apply(em, charge, occurredAt) : Promise.resolve(IGNORED),
    );
  }

  private async apply(
    em: EntityManager,
    charge: RecurringChargeState,
    occurredAt: Date | null,
  ): Promise<{ outcome: WebhookOutcome; teamId: string | null }> {
    // The checkout first, then the subscription: the order the return takes its locks in.
    const checkout = await this.checkouts.ofCharge(em, charge.id);
    const current = await this.subscriptions.findByProviderId(em, charge.id, 'storefront');
    if (current) {
      const teamId = current.teamId;
      if (current.lastEventAt && occurredAt && occurredAt < current.lastEventAt)
        return { outcome: 'stale', teamId };
      const status = SUBSCRIPTION_STATUSES[charge.status];
      if (!status) return { outcome: 'ignored', teamId };
      const { id: _id, teamId: _team, live: _live, lastEventAt: _last, ...state } = current;
      await this.subscriptions.save(
        em,
        teamId,
        {
          ...state,
          status,
          unpaidInvoices: charge.status === 'frozen',
          expiresAt: charge.billingOn ?? current.expiresAt,
        },
        occurredAt,
      );
      if (checkout) await this.checkouts.chargeChanged(em, checkout.id, charge.status);
      return { outcome: 'applied', teamId };
    }
    if (!checkout) return { outcome: 'unknown_charge', teamId: null };
    // Settled before (declined, expired, or a charge the team has since replaced).
    if (checkout.completed_at) return { outcome: 'ignored', teamId: checkout.team_id };
    const settled = await this.settle(em, checkout.id, charge, occurredAt);
    if (settled === 'unknown_plan') return { outcome: 'unknown_plan', teamId: checkout.team_id };
    return { outcome: settled.changed ? 'applied' : 'ignored', teamId: checkout.team_id };
  }

  /**
   * Settles a pending checkout with its charge's status: active or frozen put the team on the
   * checkout's plan (replacing whatever subscription it had) and mark the checkout done;
   * declined, expired or cancelled mark it done; pending changes nothing. A checkout settled
   * meanwhile (a return and a webhook at once) is answered as it is.
   */
  private async settle(
    em: EntityManager,
    checkoutId: string,
    charge: RecurringChargeState,
    occurredAt: Date | null,
  ): Promise<{ status: ChargeStatus | null; changed: boolean } | 'unknown_plan'> {
    const checkout = (await this.checkouts.lock(em, checkoutId))!;
    if (checkout.completed_at) return { status: checkout.status, changed: false };
    if (charge.status === 'pending') return { status: 'pending', changed: false };
    if (GRANTING.has(charge.status)) {
      const plan = planById(checkout.plan_id);
      if (!plan) return 'unknown_plan';
      await this.subscriptions.find(em, checkout.team_id, true);
      const periodDays = plan.billingPeriodUnit === 'year' ? 365 : 30;
      await this.subscriptions.save(
        em,
        checkout.team_id,
        {
          provider: 'storefront',
          planId: plan.id,
          planName: plan.name,
          planType: plan.type,
          status: SUBSCRIPTION_STATUSES[charge.status]!,
          billingPeriod: plan.billingPeriod,
          billingPeriodUnit: plan.billingPeriodUnit,
          expiresAt: charge.billingOn ?? this.clock.in(periodDays * plan.billingPeriod * 86400),
          providerSubscriptionId: charge.id,
          providerCustomerId: null,
          addonsQtyByKey: {},
          entitlements: capacitiesOf(plan),
          unpaidInvoices: charge.status === 'frozen',
          hasScheduledChanges: false,
          scheduledPlanId: null,
          hasCouponCode: false,
        },
        occurredAt,
        true,
      );
    }
    await this.checkouts.settled(em, checkoutId, charge.status);
    return { status: charge.status, changed: true };
  }

  private async callStorefront<T>(call: () => Promise<T>): Promise<T> {
    return counterpartCall(
      {
        name: 'storefront app',
        refusal: StorefrontAppRefusal,
        unavailable: StorefrontAppUnavailable,
      },
      call,
    );
  }
}

const IGNORED = { outcome: 'ignored' as const, teamId: null };

function page(status: number, title: string, message: string): ReturnAnswer {
  return { status, title, message };
}

/** The client's returnUrl with `subscription=<outcome>` (its own query kept). */
function withOutcome(returnUrl: string, outcome: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('subscription', outcome);
  return url.toString();
}
