import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { HydraApi } from '../hydra/controller/hydra-api';
import { optionalWorkspace } from '../lookups/request-fields';
import { exportRequest } from './export-request';
import { Export } from './export.entity';
import { ExportsService } from './exports.service';

/**
 * `POST /export` `{"entity": "shipments"|"orders", "workspaceId"?: <workspace>,
 * "filters"?: {...collection query parameters...} | "<query string>", "params"?: [...],
 * "format"?: "csv"}` answers 200 with the export (status `queued`, `message`, `link` null);
 * `GET /exports/{id}` follows it, and the caller is notified (tag `export`) when it is done.
 * `GET /exports/{id}/download` streams the CSV file (whatever the Accept header asks: it is
 * a file download), 409 while it is not ready.
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class ExportsController {
  constructor(
    private readonly api: HydraApi,
    private readonly exports: ExportsService,
  ) {}

  @Post('/export')
  @HttpCode(200)
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const request = exportRequest(body);
    const workspaceId = await optionalWorkspace(this.api, principal, body);
    const id = await this.exports.queue(principal, request, workspaceId);
    const resource = this.api.resource(Export);
    this.api.responder.item(req, res, resource, await this.api.data.get(resource, principal, id));
  }

  @Get('/exports/:id/download')
  async download(
    @Param('id') id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const principal = this.api.requirePrincipal(req);
    const file = await this.exports.download(principal, id);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Length', String(file.size));
    res.setHeader('Content-Disposition', `attachment; filename="${file.fileName}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    await pipeline(file.stream, res);
  }
}
