import { Controller, Get, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { HydraApi, routeParam } from '../hydra/controller/hydra-api';
import { NotFoundError } from '../hydra/errors/api-errors';
import { QueryParams } from '../hydra/query/query-params';
import { EntityTypesService } from './entity-types.service';

/**
 * `GET /entity_types`, `GET /entity_types/{id}`: the entities that carry custom fields, with
 * their field layout. `?workspace=<id>` includes that workspace's custom fields and default
 * layout. Read-only and computed: nothing to paginate beyond a handful of entries.
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class EntityTypesController {
  constructor(
    private readonly api: HydraApi,
    private readonly types: EntityTypesService,
  ) {}

  @Get('/entity_types')
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    const format = this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const members = await this.types.all(principal, QueryParams.fromUrl(req.originalUrl));
    const body =
      format === 'json'
        ? members
        : {
            '@context': '/contexts/EntityType',
            '@id': '/entity_types',
            '@type': 'hydra:Collection',
            'hydra:member': members.map((m) => ({
              '@id': `/entity_types/${m.id}`,
              '@type': 'EntityType',
              ...m,
            })),
            'hydra:totalItems': members.length,
          };
    this.api.responder.json(req, res, body);
  }

  @Get('/entity_types/:id')
  async get(@Req() req: Request, @Res() res: Response): Promise<void> {
    const format = this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const id = routeParam(req, 'id');
    const member = (await this.types.all(principal, QueryParams.fromUrl(req.originalUrl))).find(
      (m) => m.id === id,
    );
    if (!member) throw new NotFoundError();
    this.api.responder.json(
      req,
      res,
      format === 'json'
        ? member
        : {
            '@context': '/contexts/EntityType',
            '@id': `/entity_types/${id}`,
            '@type': 'EntityType',
            ...member,
          },
    );
  }
}
