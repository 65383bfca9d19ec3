import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { timingSafeEqual, createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Public } from '../access/public.decorator';
import { AppConfig } from '../config/app-config';
import { HydraApi } from '../hydra/controller/hydra-api';
import { ApiError, ValidationError, ViolationCodes } from '../hydra/errors/api-errors';
import { identifierFrom } from '../hydra/filters/filter';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { jsonLdItem } from '../hydra/serialization/jsonld';
import { typeError } from '../hydra/write/denormalizer';
import { requireString } from '../security/body-fields';
import { Team } from '../teams/team.entity';
import { sendAction } from '../tracking-pages/action-response';
import { UserView } from '../users/user-view';
import { Workspace } from '../workspaces/workspace.entity';
import { PrincipalLoader } from '../access/principal-loader';
import { IntegrationKind, linkWorkspace } from './integration-links';
import {
  STOREFRONT_APP,
  StorefrontApp,
  StorefrontAppRefusal,
  StorefrontAppUnavailable,
} from './storefront-app';
import { StorefrontRegistration } from './storefront-registration';

export const INTEGRATION_SECRET_HEADER = 'x-integration-secret';

/**
 * Integrations (spec "Integrations"):
 * - `POST /integration/storefront/register` (public: the merchant signs up from the storefront
 *   app) -> 201 `{accessToken, refreshToken, user, team, workspace, workflowId}`;
 * - `POST /integration-secure/storefront/workspace` and `/integration-secure/marketing_provider/
 *   workspace` (server to server: the apps send `X-Integration-Secret: INTEGRATION_SECRET`)
 *   `{tokenId, workspaceId}` -> 201 `{teamId, workspaceId, workflowId}`: the storefront
 *   installation or marketing account `tokenId` is linked to the workspace (moved there when it
 *   was linked elsewhere).
 *
 * `workflowId` is null: links are recorded in integration_link, not as workflows.
 */
@Public()
@Controller()
export class IntegrationsController {
  constructor(
    private readonly api: HydraApi,
    private readonly registration: StorefrontRegistration,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly users: UserView,
    private readonly principals: PrincipalLoader,
    private readonly registry: ResourceRegistry,
    @Inject(STOREFRONT_APP) private readonly storefront: StorefrontApp,
  ) {}

  @Post('/integration/storefront/register')
  @HttpCode(201)
  async register(@Req() req: Request, @Res() res: Response): Promise<void> {
    const format = this.api.responder.negotiate(req, ['jsonld', 'json']);
    const input = this.registration.read(this.api.body(req));
    const done = await this.registration.register(input);
    const principal = (await this.principals.forUser(done.userId))!;
    const embed = async (target: Function, id: string) => {
      const resource = this.registry.get(target);
      const record = await this.api.data.get(resource, principal, id);
      return format === 'jsonld' ? jsonLdItem(resource, record, false) : record;
    };
    sendAction(
      this.api.responder,
      req,
      res,
      'StorefrontRegisterResponse',
      {
        accessToken: done.token.access_token,
        refreshToken: done.token.refresh_token ?? null,
        user: await this.users.embedded(req, done.userId),
        team: await embed(Team, done.teamId),
        workspace: await embed(Workspace, done.workspaceId),
        workflowId: null,
      },
      201,
    );
  }

  @Post('/integration-secure/storefront/workspace')
  @HttpCode(201)
  async storefrontWorkspace(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.link(req, res, 'storefront');
  }

  @Post('/integration-secure/marketing_provider/workspace')
  @HttpCode(201)
  async marketingWorkspace(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.link(req, res, 'marketing_provider');
  }

  private async link(req: Request, res: Response, kind: IntegrationKind): Promise<void> {
    this.authenticate(req);
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const body = this.api.body(req);
    const tokenId = requireString(body, 'tokenId').trim();
    if (tokenId.length > 255)
      throw ValidationError.of('tokenId', 'This value is too long.', ViolationCodes.tooLong);
    // The marketing account's name (the storefront's comes from its app): a string or nothing.
    const accountName = kind === 'storefront' ? undefined : body.accountName;
    if (accountName !== undefined && accountName !== null && typeof accountName !== 'string')
      throw typeError('accountName', 'string', accountName);
    const rawWorkspace = requireString(body, 'workspaceId').trim();
    const workspaceId = identifierFrom(rawWorkspace);
    const [workspace] = workspaceId
      ? await this.dataSource.query(
          `SELECT id, team_id FROM workspace WHERE id = $1 AND NOT scheduled_for_delete`,
          [workspaceId],
        )
      : [];
    if (!workspace)
      throw ValidationError.of(
        'workspaceId',
        `Item not found for "${rawWorkspace}".`,
        ViolationCodes.invalid,
      );
    let account: string | null = null;
    if (kind === 'storefront') account = await this.shopOf(tokenId);
    else if (typeof accountName === 'string') account = accountName.trim().slice(0, 255);
    await this.dataSource.transaction((em) =>
      linkWorkspace(em, {
        teamId: workspace.team_id,
        workspaceId: workspace.id,
        kind,
        externalId: tokenId,
        account,
      }),
    );
    sendAction(
      this.api.responder,
      req,
      res,
      kind === 'storefront' ? 'StorefrontWorkspaceResponse' : 'MarketingProviderWorkspaceResponse',
      { teamId: workspace.team_id, workspaceId: workspace.id, workflowId: null },
      201,
    );
  }

  /** The storefront installation must be known to the storefront app: its shop. */
  private async shopOf(tokenId: string): Promise<string> {
    if (!this.storefront.configured)
      throw new ApiError(503, 'No storefront app is configured on this server.');
    try {
      const installation = await this.storefront.installation(tokenId);
      if (!installation)
        throw ValidationError.of(
          'tokenId',
          'This storefront installation is unknown.',
          ViolationCodes.invalid,
        );
      return installation.shop;
    } catch (error) {
      if (error instanceof StorefrontAppRefusal)
        throw ValidationError.of('tokenId', error.message, ViolationCodes.invalid);
      if (error instanceof StorefrontAppUnavailable)
        throw new ApiError(502, 'The storefront app is unavailable; try again later.');
      throw error;
    }
  }

  /** The shared secret, compared in constant time (digests, so lengths never leak). */
  private authenticate(req: Request): void {
    const secret = this.config.integrationSecret;
    const given = req.headers[INTEGRATION_SECRET_HEADER];
    const value = Array.isArray(given) ? given[0] : given;
    const digest = (s: string) => createHash('sha256').update(s).digest();
    if (!secret || !value || !timingSafeEqual(digest(secret), digest(value)))
      throw new ApiError(403, 'Invalid or missing integration secret.');
  }
}
