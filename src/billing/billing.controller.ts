import { Controller } from '@nestjs/common';
import { fromInput } from '../access/access-target';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import {
  type HtmlPage,
  PageAnswer,
  RedirectAnswer,
  typedJson,
} from '../hydra/actions/action-result';
import { errorPage, noticePage } from '../auth/authorization-page';
import { Team } from '../teams/team.entity';
import { addonsFrom, planFrom, urlFrom } from './billing-input';
import {
  BillingWebhookInput,
  EstimateInput,
  HostedCheckoutInput,
  PlanChangeInput,
  PortalSessionInput,
  StorefrontCheckoutInput,
  StorefrontReturnInput,
  StorefrontWebhookInput,
  TeamBillingInput,
} from './billing.input';
import { BillingWebhooks, SIGNATURE_HEADER } from './billing-webhooks';
import { BillingService } from './billing.service';
import {
  BillingProviderHostedPage,
  BillingProviderSession,
  StorefrontSubscriptionCheckout,
  SubscriptionEstimate,
  WebhookReceipt,
} from './billing.output';
import { STOREFRONT_SIGNATURE_HEADER, StorefrontBilling } from './storefront-billing';

/** The team a billing action is about: `teamId` (id or IRI). */
const billedTeam = fromInput(Team, 'teamId');

const HTML = { 'text/html': { schema: { type: 'string' } } };
/** The layer's error bodies, for answers it does not document itself. */
const ERROR = {
  'application/ld+json': { schema: { $ref: '#/components/schemas/HydraError' } },
  'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } },
};
/** The return's pages and redirects are never cached (each one reads the charge anew). */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Billing actions (spec "Billing"). Trial and downgrade answer the Team (with its
 * `subscription` and `entitlements`); the provider actions answer the provider's page,
 * session or estimate; the provider's signed events arrive at the public webhook.
 */
@Controller()
export class BillingController {
  constructor(
    private readonly billing: BillingService,
    private readonly webhooks: BillingWebhooks,
    private readonly storefront: StorefrontBilling,
  ) {}

  @Action({
    method: 'POST',
    path: '/billing/subscribe_to_trial',
    summary: 'Starts a 14-day trial of the Pro plan for a team.',
    description:
      'Starts the trial of the team `teamId`, once per user, and answers the Team with its subscription and entitlements.',
    input: TeamBillingInput,
    output: { item: Team },
    formats: ['jsonld', 'json'],
    access: 'team:admin',
    team: billedTeam,
  })
  async subscribeToTrial(
    _input: TeamBillingInput,
    principal: Principal,
    context: ActionContext<'team'>,
  ) {
    const teamId = context.teamId;
    await this.billing.subscribeToTrial(principal, teamId);
    return teamId;
  }

  @Action({
    method: 'POST',
    path: '/billing/billing_provider/create_session',
    summary: 'Opens a billing portal session for a team.',
    description:
      'Answers the provider’s portal session `{id, token, access_url, ...}` (201) for the team `teamId`. `redirectUrl` must be an absolute http(s) URL.',
    input: PortalSessionInput,
    output: { json: BillingProviderSession },
    status: 201,
    access: 'team:admin',
    team: billedTeam,
  })
  async createSession(
    input: PortalSessionInput,
    _principal: Principal,
    context: ActionContext<'team'>,
  ) {
    const redirectUrl = urlFrom({ ...input }, 'redirectUrl');
    const session = await this.billing.portalSession(context.teamId, redirectUrl);
    return typedJson(context, 'BillingProviderSession', { ...session });
  }

  @Action({
    method: 'POST',
    path: '/billing/billing_provider/created_hosted_page_checkout',
    summary: 'Creates the provider\u2019s hosted checkout page for a plan.',
    description:
      'Answers the provider’s hosted page `{id, url, state, ...}` (201) for a paid `planId` and add-ons: a change checkout for a team with a live subscription, a new one otherwise.',
    input: HostedCheckoutInput,
    output: { json: BillingProviderHostedPage },
    status: 201,
    access: 'team:admin',
    team: billedTeam,
  })
  async hostedPageCheckout(
    input: HostedCheckoutInput,
    principal: Principal,
    context: ActionContext<'team'>,
  ) {
    const body = { ...input };
    const plan = planFrom(body, { paid: true });
    const addons = addonsFrom(body);
    const redirectUrl = urlFrom(body, 'redirectUrl');
    const page = await this.billing.hostedCheckout(
      principal,
      context.teamId,
      plan,
      addons,
      redirectUrl,
    );
    return typedJson(context, 'BillingProviderHostedPage', { ...page });
  }

  @Action({
    method: 'POST',
    path: '/billing/billing_provider/downgrade_subscription',
    summary: 'Schedules a smaller plan for the end of the term.',
    description:
      'Schedules the smaller paid `planId` for the end of the term and answers the Team. The team must have a paid subscription and use no more than the plan allows.',
    input: PlanChangeInput,
    output: { item: Team },
    formats: ['jsonld', 'json'],
    access: 'team:admin',
    team: billedTeam,
  })
  async downgrade(input: PlanChangeInput, _principal: Principal, context: ActionContext<'team'>) {
    const teamId = context.teamId;
    await this.billing.downgrade(teamId, planFrom({ ...input }, { paid: true }));
    return teamId;
  }

  @Action({
    method: 'POST',
    path: '/billing/billing_provider/get_subscription_estimate',
    summary: 'Estimates the next invoice for a plan and add-ons.',
    description:
      'Answers `{createdAt, nextBillingAt, nextTotal, ...}` (201) for a paid `planId` and add-ons of the catalogue.',
    input: EstimateInput,
    output: { json: SubscriptionEstimate },
    status: 201,
    access: 'team:admin',
    team: billedTeam,
  })
  async estimate(input: EstimateInput, _principal: Principal, context: ActionContext<'team'>) {
    const body = { ...input };
    const plan = planFrom(body, { paid: true });
    const estimate = await this.billing.estimate(context.teamId, plan, addonsFrom(body));
    return typedJson(context, 'SubscriptionEstimate', { ...estimate });
  }

  @Action({
    method: 'POST',
    path: '/billing/billing_provider/webhook',
    summary: 'Receives the billing provider\u2019s signed events.',
    description:
      'Public, authenticated by `X-Billing-Signature: sha256=<HMAC-SHA256 of the raw body with BILLING_WEBHOOK_SECRET>` (403 otherwise). Idempotent by event id; answers 202 `{eventId, outcome}` in plain JSON whatever the Accept header; 422 for an event without id.',
    input: BillingWebhookInput,
    output: { json: WebhookReceipt },
    status: 202,
    formats: 'any',
    access: 'public',
    responses: { 403: { description: 'A missing or wrong X-Billing-Signature.' } },
  })
  async webhook(input: BillingWebhookInput, _principal: null, context: ActionContext) {
    this.webhooks.authenticate(context.rawBody, context.header(SIGNATURE_HEADER));
    return this.webhooks.receive({ ...input });
  }

  @Action({
    method: 'POST',
    path: '/billing/storefront/checkout_subscription',
    summary: 'Starts a storefront app charge for a plan.',
    description:
      'Answers `{confirmationUrl}`, where the merchant approves the charge of a paid `planId` on the storefront platform. The platform then sends the browser to `GET /billing/storefront/return`, which activates the plan and redirects to `returnUrl` (this service’s origin or a custom domain the team verified).',
    input: StorefrontCheckoutInput,
    output: { json: StorefrontSubscriptionCheckout },
    access: 'team:admin',
    team: billedTeam,
  })
  async storefrontCheckout(
    input: StorefrontCheckoutInput,
    principal: Principal,
    context: ActionContext<'team'>,
  ) {
    const body = { ...input };
    const plan = planFrom(body, { paid: true });
    const returnUrl = urlFrom(body, 'returnUrl', true)!;
    const answer = await this.storefront.checkout(principal, context.teamId, plan, returnUrl);
    return typedJson(context, 'StorefrontSubscriptionCheckout', { ...answer });
  }

  @Action({
    method: 'GET',
    path: '/billing/storefront/return',
    summary: 'Takes the merchant back from a storefront charge\u2019s confirmation.',
    description:
      'Reads the charge from the storefront app, activates the checkout’s plan once approved, and redirects (302) to the checkout’s `returnUrl` with the `subscription` outcome, once. A page says the outcome on later visits and what went wrong otherwise, never cached.',
    input: StorefrontReturnInput,
    output: { oneOf: { html: true, redirect: true } },
    // Every answer has its own status: the redirect, or a page saying what went wrong.
    status: 302,
    responses: {
      302: {
        description:
          'Reads the charge from the storefront app, activates the checkout’s plan once approved, and redirects (302) to the checkout’s `returnUrl` with the `subscription` outcome. An HTML page says what went wrong otherwise, never cached.',
        content: undefined,
        headers: { Location: { schema: { type: 'string', format: 'uri' } } },
      },
      200: {
        description:
          'The outcome on a page: the return was used already, or its returnUrl is not allowed.',
        content: HTML,
      },
      400: { description: 'A link without checkout or charge (an HTML page).', content: HTML },
      404: { description: 'No checkout of this charge (an HTML page).', content: HTML },
      409: { description: 'The checkout\u2019s plan is no longer offered.', content: HTML },
      502: { description: 'The storefront app cannot confirm the charge.', content: HTML },
      503: { description: 'No storefront app is configured.', content: HTML },
    },
    access: 'public',
  })
  async storefrontReturn(input: StorefrontReturnInput) {
    const answer = await this.storefront.returnFromPlatform(input.checkout, input.charge_id);
    if ('redirect' in answer)
      return new RedirectAnswer({ url: answer.redirect, status: 302, headers: NO_STORE });
    const page: HtmlPage = {
      html: (answer.status < 400 ? noticePage : errorPage)(answer.title, answer.message),
      status: answer.status,
      headers: {
        ...NO_STORE,
        'Content-Security-Policy':
          "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      },
    };
    return new PageAnswer(page);
  }

  @Action({
    method: 'POST',
    path: '/billing/storefront/webhook',
    summary: 'Receives the storefront app\u2019s signed charge events.',
    description:
      'The charge’s new status (signed with `X-Storefront-Hmac-Sha256`) moves the subscription activated from it, or settles its pending checkout. Idempotent by event id; answers 202 `{eventId, outcome}` in plain JSON.',
    input: StorefrontWebhookInput,
    output: { json: WebhookReceipt },
    status: 202,
    formats: 'any',
    responses: {
      403: {
        description:
          'The charge’s new status (signed with `X-Storefront-Hmac-Sha256`) moves the subscription activated from it, or settles its pending checkout. Idempotent by event id; answers 202 `{eventId, outcome}` in plain JSON.',
        content: ERROR,
      },
    },
    access: 'public',
  })
  async storefrontWebhook(input: StorefrontWebhookInput, _principal: null, context: ActionContext) {
    this.storefront.authenticate(context.rawBody, context.header(STOREFRONT_SIGNATURE_HEADER));
    return this.storefront.receive({ ...input });
  }
}
