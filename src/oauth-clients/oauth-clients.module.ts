import { Inject, Module, Post, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { HydraApi } from '../hydra/controller/hydra-api';
import { ResourceController } from '../hydra/controller/resource-controller';
import { randomSecret } from '../auth/secret-token';
import { OauthClient } from './oauth-client.entity';
import { OauthClientsService } from './oauth-clients.service';

// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
export class OauthClientsController extends ResourceController(OauthClient, OauthClientsService) {
  declare readonly api: HydraApi;
  @Inject(OauthClientsService) private readonly clients!: OauthClientsService;

  /** POST /oauth_clients: the answer is the only time the secret is shown. */
  @Post('/oauth_clients')
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    const resource = this.api.resource(OauthClient);
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req, resource);
    const secret = randomSecret();
    const id = await this.api.writer.create(
      resource,
      body,
      principal,
      this.clients.creationHooks(secret),
      req,
    );
    const record = await this.api.data.get(resource, principal, id);
    this.api.responder.item(req, res, resource, { ...record, secret }, 201);
  }
}

@Module({
  controllers: [OauthClientsController],
  providers: [OauthClientsService],
  exports: [OauthClientsService],
})
export class OauthClientsModule {}
