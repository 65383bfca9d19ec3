import { Controller } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { typedJson, typedList } from '../hydra/actions/action-result';
import { NotFoundError } from '../common/errors/api-errors';
import { QueryParams } from '../hydra/core/query-params';
import { EntityTypeOutput } from './entity-type.output';
import { EntityTypesService } from './entity-types.service';

/**
 * `GET /entity_types`, `GET /entity_types/{id}`: the entities that carry custom fields, with
 * their field layout. Read-only and computed: nothing to paginate beyond a handful of entries.
 */
@Controller()
export class EntityTypesController {
  constructor(private readonly types: EntityTypesService) {}

  @Action({
    method: 'GET',
    path: '/entity_types',
    summary: 'Lists the entities that carry custom fields, with their field layout.',
    description:
      'A JSON-LD collection (a bare array in JSON) of the entities that carry custom fields. `?workspace=<id>` includes that workspace’s custom fields and default layout.',
    output: { json: [EntityTypeOutput] },
    access: 'workspace:read',
  })
  async list(_input: unknown, principal: Principal, context: ActionContext) {
    const members = await this.types.all(principal, QueryParams.fromUrl(context.url));
    return typedList(context, 'EntityType', members, (m) => `/entity_types/${m.id}`);
  }

  @Action({
    method: 'GET',
    path: '/entity_types/:id',
    summary: 'Reads one entity type (`orders`, `shipments`) with its field layout.',
    description:
      '`?workspace=<id>` includes that workspace\u2019s custom fields and default layout; 404 for an unknown entity. Any signed-in member may read.',
    output: { json: EntityTypeOutput },
    access: 'workspace:read',
  })
  async get(_input: unknown, principal: Principal, context: ActionContext) {
    const id = context.params.id;
    const member = (await this.types.all(principal, QueryParams.fromUrl(context.url))).find(
      (m) => m.id === id,
    );
    if (!member) throw new NotFoundError();
    return typedJson(context, 'EntityType', member, `/entity_types/${id}`);
  }
}
