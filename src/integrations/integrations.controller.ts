import { Controller, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { Principal } from '../access/principal';
import { PrincipalLoader } from '../access/principal-loader';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { typedJson } from '../hydra/actions/action-result';
import { DataProvider } from '../hydra/collection/data-provider';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { jsonLdItem } from '../hydra/serialization/jsonld';
import { Team } from '../teams/team.entity';
import { UserView } from '../users/user-view';
import { Workspace } from '../workspaces/workspace.entity';
import { IntegrationSecretGuard } from './integration-secret.guard';
import { IntegrationWorkspaces } from './integration-workspaces';
import { IntegrationWorkspaceInput, StorefrontRegisterInput } from './integrations.input';
import { IntegrationWorkspaceResponse, StorefrontRegisterResponse } from './integrations.output';
import { StorefrontRegistration } from './storefront-registration';

/** The shared secret of the server-to-server routes (checked first), and their 403. */
const SecretDocs = () =>
  applyDecorators(
    UseGuards(IntegrationSecretGuard),
    ApiHeader({
      name: 'X-Integration-Secret',
      required: true,
      description: 'The server\u2019s INTEGRATION_SECRET.',
    }),
    ApiResponse({ status: 403, description: 'Invalid or missing integration secret.' }),
  );

/**
 * Integrations (spec "Integrations"): sign-up from the storefront app, and the apps' links of
 * their installations or accounts to workspaces.
 */
@Controller()
export class IntegrationsController {
  constructor(
    private readonly registration: StorefrontRegistration,
    private readonly workspaces: IntegrationWorkspaces,
    private readonly users: UserView,
    private readonly principals: PrincipalLoader,
    private readonly registry: ResourceRegistry,
    private readonly data: DataProvider,
  ) {}

  @Action({
    method: 'POST',
    path: '/integration/storefront/register',
    summary: 'Signs a merchant up from the storefront app.',
    description:
      'The merchant who installed the app in a shop (`tokenId`) gets an account, a team, a workspace with a tracking page at `subdomain`, and the shop linked to it, in one transaction. Answers `{accessToken, refreshToken, user, team, workspace, workflowId}` (201).',
    input: StorefrontRegisterInput,
    output: { json: StorefrontRegisterResponse },
    status: 201,
    access: 'public',
  })
  async register(input: StorefrontRegisterInput, _principal: unknown, context: ActionContext) {
    const read = this.registration.read(input as Record<string, unknown>);
    const done = await this.registration.register(read, context.ip);
    if (!done)
      return typedJson(context, 'StorefrontRegisterResponse', {
        accessToken: null,
        refreshToken: null,
        user: { '@type': 'User', email: read.email, emailVerified: false },
        team: null,
        workspace: null,
        workflowId: null,
        message: 'Check your inbox: we sent a message to this address to finish the registration.',
      });
    const principal = (await this.principals.forUser(done.userId))!;
    const embed = async (target: Function, id: string) => {
      const resource = this.registry.get(target);
      const record = await this.data.get(resource, principal, id);
      return context.format === 'jsonld' ? jsonLdItem(resource, record, false) : record;
    };
    return typedJson(context, 'StorefrontRegisterResponse', {
      accessToken: done.token.access_token,
      refreshToken: done.token.refresh_token ?? null,
      user: await this.users.embeddedAs(context.format, done.userId),
      team: await embed(Team, done.teamId),
      workspace: await embed(Workspace, done.workspaceId),
      workflowId: null,
    });
  }

  @Action({
    method: 'POST',
    path: '/integration-secure/storefront/workspace',
    summary: 'Links a storefront installation to a workspace.',
    description:
      'Server to server (`X-Integration-Secret`): links the storefront installation `tokenId` to the workspace `workspaceId`, moving it when it was linked elsewhere. Answers `{teamId, workspaceId, workflowId}` (201).',
    input: IntegrationWorkspaceInput,
    output: { json: IntegrationWorkspaceResponse },
    status: 201,
    access: 'public',
  })
  @SecretDocs()
  async storefrontWorkspace(
    input: IntegrationWorkspaceInput,
    _principal: Principal | null,
    context: ActionContext,
  ) {
    const linked = await this.workspaces.link('storefront', { ...input, accountName: undefined });
    return typedJson(context, 'StorefrontWorkspaceResponse', { ...linked });
  }

  @Action({
    method: 'POST',
    path: '/integration-secure/marketing_provider/workspace',
    summary: 'Links a marketing provider account to a workspace.',
    description:
      'Server to server (`X-Integration-Secret`): links the marketing account `tokenId` (named `accountName`) to the workspace `workspaceId`, moving it when it was linked elsewhere. Answers `{teamId, workspaceId, workflowId}` (201).',
    input: IntegrationWorkspaceInput,
    output: { json: IntegrationWorkspaceResponse },
    status: 201,
    access: 'public',
  })
  @SecretDocs()
  async marketingWorkspace(
    input: IntegrationWorkspaceInput,
    _principal: Principal | null,
    context: ActionContext,
  ) {
    const linked = await this.workspaces.link('marketing_provider', input);
    return typedJson(context, 'MarketingProviderWorkspaceResponse', { ...linked });
  }
}
