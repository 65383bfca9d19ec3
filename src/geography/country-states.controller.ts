import { Controller } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import type { CollectionQuery } from '../hydra/actions/action-result';
import { DataProvider } from '../hydra/collection/data-provider';
import { NotFoundError } from '../common/errors/api-errors';
import { itemIdentifier } from '../hydra/core/identifiers';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { Country } from './country.entity';
import { State } from './state.entity';

/** `GET /countries/{code}/states`: the states collection of one country. */
@Controller()
export class CountryStatesController {
  constructor(
    private readonly data: DataProvider,
    private readonly registry: ResourceRegistry,
  ) {}

  @Action({
    method: 'GET',
    path: '/countries/:code/states',
    summary: 'Lists the states of one country.',
    description:
      'The shared catalogue\u2019s states of the country `code` (ISO 3166-1 alpha-2), filtered and paged like `/states`. Any signed-in user; 404 for an unknown country.',
    output: { collection: State },
    access: 'user',
  })
  async list(
    _input: unknown,
    principal: Principal,
    context: ActionContext,
  ): Promise<CollectionQuery> {
    const countries = this.registry.get(Country);
    const code = itemIdentifier(countries, context.params.code);
    if (code === null || !(await this.data.visible(countries, principal, code)))
      throw new NotFoundError();
    return {
      hooks: {
        scopeCollection: (query) => {
          query.andWhere(`${query.alias}.country_code = ${query.param(code)}`);
        },
      },
    };
  }
}
