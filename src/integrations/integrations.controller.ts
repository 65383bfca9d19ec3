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

const LINK_DESCRIPTION = (what: string) =>
  `Server to server: the app sends \`X-Integration-Secret: INTEGRATION_SECRET\` (403 without it or with a wrong one; a user token is no substitute). Links ${what} \`tokenId\` to the workspace \`workspaceId\` (id or IRI), moving it there when it was linked elsewhere, and answers \`{teamId, workspaceId, workflowId}\` (201; \`workflowId\` is null: links are recorded in integration_link). 422 for a blank \`tokenId\` or an unknown workspace; 400 for wrong types.`;

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
      'Public: the merchant who installed the app in a shop (`tokenId`) creates an account, a team, its first workspace with a tracking page at `subdomain`, and the shop is linked to it, in one transaction. Answers `{accessToken, refreshToken, user, team, workspace, workflowId}` (201) so the app continues as the user. The address is verified when it is the shop\u2019s own. 422 for blank, long or malformed values (all listed), an installation the storefront app does not know, a shop already linked, a known address or a taken subdomain; 400 for wrong types; 502/503 when the storefront app is unavailable or not configured.',
    input: StorefrontRegisterInput,
    output: { json: StorefrontRegisterResponse },
    status: 201,
    access: 'public',
  })
  async register(input: StorefrontRegisterInput, _principal: unknown, context: ActionContext) {
    const done = await this.registration.register(
      this.registration.read(input as Record<string, unknown>),
    );
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
    description: `${LINK_DESCRIPTION('the storefront installation')} The installation must be known to the storefront app (422 else; 502/503 when the app is unavailable or not configured).`,
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
    description: `${LINK_DESCRIPTION('the marketing account')} \`accountName\` (optional) names the account.`,
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
