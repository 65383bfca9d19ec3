import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { HydraApi } from '../hydra/controller/hydra-api';
import { sendAction } from '../tracking-pages/action-response';
import { Import } from './import.entity';
import { ImportsService } from './imports.service';
import { AcceptsUploads } from '../hydra/serialization/multipart.middleware';

/**
 * `POST /imports/pre-upload` (the CSV as multipart `file` or text `content`, a `workspace`,
 * optionally `entity`): headers, a preview and a suggested mapping, nothing stored.
 * `POST /imports` (the same plus an optional `mapping` {column: field}, JSON text in a
 * multipart form): stores the import and queues it; 201 with the Import, progress at
 * GET /imports/{id}.
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class ImportsController {
  constructor(
    private readonly api: HydraApi,
    private readonly imports: ImportsService,
  ) {}

  @Post('/imports/pre-upload')
  @AcceptsUploads()
  @HttpCode(200)
  async preUpload(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const principal = this.api.requirePrincipal(req);
    const preview = await this.imports.preview(req, principal);
    sendAction(this.api.responder, req, res, 'ImportPreUpload', preview);
  }

  @Post('/imports')
  @AcceptsUploads()
  @HttpCode(201)
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    const resource = this.api.resource(Import);
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const id = await this.imports.start(req, principal);
    const record = await this.api.data.get(resource, principal, id);
    this.api.responder.item(req, res, resource, record, 201);
  }
}
