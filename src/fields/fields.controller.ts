import { Controller, Delete, Get, HttpCode, Post, Put, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { HydraApi, routeParam } from '../hydra/controller/hydra-api';
import { parsePagination } from '../hydra/collection/pagination';
import { BadRequestError, ValidationError } from '../hydra/errors/api-errors';
import { parseBoolean } from '../hydra/filters/filter';
import { QueryParams } from '../hydra/query/query-params';
import { CUSTOM_FIELD_ENTITIES } from './custom-field-values';
import { FieldsService } from './fields.service';

/**
 * `/fields`: custom fields by code, plus the built-in fields of an entity in the list
 * (`primary=true` only those, `primary=false` only custom ones, neither: built-in first).
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class FieldsController {
  constructor(
    private readonly api: HydraApi,
    private readonly fields: FieldsService,
  ) {}

  @Get('/fields')
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const params = QueryParams.fromUrl(req.originalUrl);
    const entity = params.get('entity');
    if (!entity) throw new BadRequestError('The "entity" query parameter is required.');
    if (!this.fields.entityResource(entity))
      throw new BadRequestError(`Unknown entity "${entity}".`);
    const pagination = parsePagination(params, this.fields.resource.maxItemsPerPage);
    const primary = parseBoolean(params.get('primary'));
    const members = [
      ...(primary === false ? [] : this.fields.primary(entity)),
      ...(primary === true ||
      !(CUSTOM_FIELD_ENTITIES as readonly string[]).includes(entity.split('.')[0])
        ? []
        : (await this.fields.custom(principal, params)).map((m) => m.record)),
    ];
    this.api.responder.collection(req, res, this.fields.resource, {
      members: members.slice(pagination.offset, pagination.offset + pagination.itemsPerPage),
      totalItems: members.length,
      pagination,
    });
  }

  @Get('/fields/:code')
  async get(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const match = await this.fields.find(
      principal,
      routeParam(req, 'code'),
      QueryParams.fromUrl(req.originalUrl),
    );
    this.api.responder.item(req, res, this.fields.resource, match.record);
  }

  @Post('/fields')
  @HttpCode(201)
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const id = await this.fields.create(principal, this.api.body(req, this.fields.resource));
    this.api.responder.item(req, res, this.fields.resource, await this.fields.record(id), 201);
  }

  @Put('/fields/:code')
  async replace(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req, this.fields.resource);
    const id = await this.customId(req);
    await this.fields.replace(principal, id, body);
    this.api.responder.item(req, res, this.fields.resource, await this.fields.record(id));
  }

  @Delete('/fields/:code')
  @HttpCode(204)
  async remove(@Req() req: Request, @Res() res: Response): Promise<void> {
    const principal = this.api.requirePrincipal(req);
    await this.fields.remove(principal, await this.customId(req));
    res.status(204).end();
  }

  /** The stored field a write targets; built-in fields cannot be written (422). */
  private async customId(req: Request): Promise<string> {
    const code = routeParam(req, 'code');
    const match = await this.fields.find(
      this.api.requirePrincipal(req),
      code,
      QueryParams.fromUrl(req.originalUrl),
    );
    if (match.primary)
      throw ValidationError.of('code', 'Built-in fields cannot be changed or removed.');
    return match.id;
  }
}
