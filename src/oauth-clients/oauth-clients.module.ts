import { Inject, Module } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { HydraApi } from '../hydra/controller/hydra-api';
import { ResourceController } from '../hydra/controller/resource-controller';
import { randomSecret } from '../auth/secret-token';
import { OauthClient } from './oauth-client.entity';
import { OauthClientsService } from './oauth-clients.service';

/** OAuth clients: CRUD from the declaration, but the creation answers the secret once. */
export class OauthClientsController extends ResourceController(OauthClient, OauthClientsService) {
  declare readonly api: HydraApi;
  @Inject(OauthClientsService) private readonly clients!: OauthClientsService;

  @Action({
    method: 'POST',
    path: '/oauth_clients',
    summary: 'Registers an OAuth client of the caller.',
    description:
      'Creates a client `{name, redirectUris}` owned by the caller (a verified account); the answer is the only time its `secret` is shown. Tokens of the authorization-code flow may not register clients.',
    input: OauthClient,
    output: { item: OauthClient },
    status: 201,
    access: 'user',
  })
  async create(input: Record<string, unknown>, principal: Principal, context: ActionContext) {
    const resource = this.api.resource(OauthClient);
    const secret = randomSecret();
    const hooks = this.clients.creationHooks(secret);
    const id = await this.api.writer.create(resource, input, principal, hooks, context.request);
    return { ...(await this.api.data.get(resource, principal, id)), secret };
  }
}

@Module({
  controllers: [OauthClientsController],
  providers: [OauthClientsService],
  exports: [OauthClientsService],
})
export class OauthClientsModule {}
