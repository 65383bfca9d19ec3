import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import type { Principal } from '../access/principal';
import { Public } from '../access/public.decorator';
import { HydraApi } from '../hydra/controller/hydra-api';
import { Team } from '../teams/team.entity';
import { sendAction } from '../tracking-pages/action-response';
import { adminTeamFrom, addonsFrom, planFrom, urlFrom } from './billing-input';
import { BillingWebhooks, SIGNATURE_HEADER } from './billing-webhooks';
import { BillingService } from './billing.service';

/**
 * Billing actions (spec "Billing"). Bodies name the team as `teamId` (id or IRI); only its
 * owners and admins may act. Trial and downgrade answer the Team (with its `subscription` and
 * `entitlements`); the provider actions answer the provider's page, session or estimate.
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller('billing')
export class BillingController {
  constructor(
    private readonly api: HydraApi,
    private readonly billing: BillingService,
    private readonly webhooks: BillingWebhooks,
  ) {}

  /** `{teamId}` -> 200 Team: a 14-day trial of the Pro plan, once per user. */
  @Post('subscribe_to_trial')
  @HttpCode(200)
  async subscribeToTrial(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const teamId = adminTeamFrom(this.api.body(req), principal);
    await this.billing.subscribeToTrial(principal, teamId);
    await this.sendTeam(req, res, principal, teamId);
  }

  /** `{teamId, redirectUrl?}` -> 201 portal session `{id, token, access_url, ...}`. */
  @Post('billing_provider/create_session')
  @HttpCode(201)
  async createSession(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const teamId = adminTeamFrom(body, principal);
    const redirectUrl = urlFrom(body, 'redirectUrl');
    const session = await this.billing.portalSession(teamId, redirectUrl);
    sendAction(this.api.responder, req, res, 'BillingProviderSession', { ...session }, 201);
  }

  /**
   * `{teamId, planId, addonsQtyByKey?, redirectUrl?}` -> 201 hosted page `{id, url, state, ...}`.
   * `intent` is accepted and not needed: a team with a live subscription gets a change
   * checkout, others a new one.
   */
  @Post('billing_provider/created_hosted_page_checkout')
  @HttpCode(201)
  async hostedPageCheckout(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const teamId = adminTeamFrom(body, principal);
    const plan = planFrom(body, { paid: true });
    const addons = addonsFrom(body);
    const redirectUrl = urlFrom(body, 'redirectUrl');
    const page = await this.billing.hostedCheckout(principal, teamId, plan, addons, redirectUrl);
    sendAction(this.api.responder, req, res, 'BillingProviderHostedPage', { ...page }, 201);
  }

  /** `{teamId, planId}` -> 200 Team: the smaller plan is scheduled for the end of the term. */
  @Post('billing_provider/downgrade_subscription')
  @HttpCode(200)
  async downgrade(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const teamId = adminTeamFrom(body, principal);
    const plan = planFrom(body, { paid: true });
    await this.billing.downgrade(teamId, plan);
    await this.sendTeam(req, res, principal, teamId);
  }

  /** `{teamId, planId, addonsQtyByKey?}` -> 201 `{createdAt, nextBillingAt, nextTotal, ...}`. */
  @Post('billing_provider/get_subscription_estimate')
  @HttpCode(201)
  async estimate(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const teamId = adminTeamFrom(body, principal);
    const plan = planFrom(body, { paid: true });
    const estimate = await this.billing.estimate(teamId, plan, addonsFrom(body));
    sendAction(this.api.responder, req, res, 'SubscriptionEstimate', { ...estimate }, 201);
  }

  /**
   * The provider's events, signed: `X-Billing-Signature: sha256=<HMAC-SHA256 of the raw body
   * with BILLING_WEBHOOK_SECRET>`. 202 `{eventId, outcome}`; 403 for a bad signature.
   */
  @Public()
  @Post('billing_provider/webhook')
  @HttpCode(202)
  async webhook(@Req() req: Request, @Res() res: Response): Promise<void> {
    const header = req.headers[SIGNATURE_HEADER];
    this.webhooks.authenticate(
      (req as Request & { rawBody?: Buffer }).rawBody,
      Array.isArray(header) ? header[0] : header,
    );
    const receipt = await this.webhooks.receive(this.api.body(req));
    res.status(202).json(receipt);
  }

  /** `{teamId, planId, returnUrl}` -> 200 `{confirmationUrl}` (a storefront app charge). */
  @Post('storefront/checkout_subscription')
  @HttpCode(200)
  async storefrontCheckout(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const teamId = adminTeamFrom(body, principal);
    const plan = planFrom(body, { paid: true });
    const returnUrl = urlFrom(body, 'returnUrl', true)!;
    const answer = await this.billing.storefrontCheckout(principal, teamId, plan, returnUrl);
    sendAction(this.api.responder, req, res, 'StorefrontSubscriptionCheckout', answer);
  }

  private async sendTeam(
    req: Request,
    res: Response,
    principal: Principal,
    teamId: string,
  ): Promise<void> {
    const resource = this.api.resource(Team);
    const record = await this.api.data.get(resource, principal, teamId);
    this.api.responder.item(req, res, resource, record);
  }
}
