import { Inject, Module, forwardRef } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { HydraApi } from '../hydra/controller/hydra-api';
import { ResourceController } from '../hydra/controller/resource-controller';
import { randomSecret } from '../auth/secret-token';
import { UsersModule } from '../users/users.module';
import { OauthClient } from './oauth-client.entity';
import { OauthClientStore } from './oauth-client-store';
import { OauthClientsService } from './oauth-clients.service';

/** OAuth clients: CRUD from the declaration, but the creation answers the secret once. */
export class OauthClientsController extends ResourceController(OauthClient) {
  declare readonly api: HydraApi;
  @Inject(OauthClientsService) private readonly clients!: OauthClientsService;

  @Action({
    method: 'POST',
    path: '/oauth_clients',
    summary: 'Registers an OAuth client of the caller.',
    description:
      'Creates a client `{name, redirectUris}` owned by the caller (a verified account; redirect URIs https, or http on loopback); the answer is the only time its `secret` is shown.',
    input: OauthClient,
    output: { item: OauthClient },
    status: 201,
    access: 'user',
    delegated: false,
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
  // Users end their OAuth clients (AccessRevocation); clients are made by verified users.
  imports: [forwardRef(() => UsersModule)],
  controllers: [OauthClientsController],
  providers: [OauthClientsService, OauthClientStore],
  exports: [OauthClientsService, OauthClientStore],
})
export class OauthClientsModule {}
