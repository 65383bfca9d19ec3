import { Controller, Get, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { HydraApi, routeParam } from '../hydra/controller/hydra-api';
import { NotFoundError } from '../hydra/errors/api-errors';
import { itemIdentifier } from '../hydra/metadata/resource-identifier';
import { Country } from './country.entity';
import { State } from './state.entity';

/** `GET /countries/{code}/states`: the states collection of one country (404 for an unknown one). */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class CountryStatesController {
  constructor(private readonly api: HydraApi) {}

  @Get('/countries/:code/states')
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    const principal = this.api.requirePrincipal(req);
    const countries = this.api.resource(Country);
    const code = itemIdentifier(countries, routeParam(req, 'code'));
    if (code === null || !(await this.api.data.visible(countries, principal, code)))
      throw new NotFoundError();
    await this.api.list(State, req, res, {
      scopeCollection: (query) => {
        query.andWhere(`${query.alias}.country_code = ${query.param(code)}`);
      },
    });
  }
}
