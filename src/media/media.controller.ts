import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { canWriteWorkspace } from '../access/principal';
import { Public } from '../access/public.decorator';
import { ResourceController } from '../hydra/controller/resource-controller';
import { HydraApi } from '../hydra/controller/hydra-api';
import {
  ApiError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
  Violation,
  ViolationCodes,
} from '../hydra/errors/api-errors';
import { Workspace } from '../workspaces/workspace.entity';
import { FileStorage, STORAGE_KEY } from './file-storage';
import { Media } from './media.entity';
import { MediaService, UploadedFile } from './media.service';
import { isImage } from './sniff-media-type';
import { AcceptsUploads } from '../hydra/serialization/multipart.middleware';

/** GET /media, GET /media/{id}: generated from the declaration. */
export class MediaController extends ResourceController(Media) {}

/** Reads the uploaded file of a multipart request (`field`), or answers 415/422. */
export function uploadedFile(req: Request, field = 'file'): UploadedFile & { fieldname: string } {
  if (!req.is('multipart/form-data')) {
    throw new ApiError(
      415,
      `The content-type "${req.headers['content-type'] ?? ''}" is not supported. Upload files as "multipart/form-data" (field "${field}").`,
    );
  }
  const files = (req.files as Array<UploadedFile & { fieldname: string }> | undefined) ?? [];
  const file = files.find((f) => f.fieldname === field);
  if (!file)
    throw ValidationError.of(field, 'This value should not be null.', ViolationCodes.notNull);
  if (file.buffer.length === 0)
    throw ValidationError.of(field, 'An empty file is not allowed.', ViolationCodes.invalid);
  return file;
}

/**
 * `POST /media` (multipart, field `file`; optional `workspace` attaches it at once and
 * `fileOriginalName` overrides the name) and the public file route behind `filePath`.
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class MediaFilesController {
  constructor(
    private readonly api: HydraApi,
    private readonly media: MediaService,
    private readonly storage: FileStorage,
    private readonly dataSource: DataSource,
  ) {}

  @Post('/media')
  @AcceptsUploads()
  @HttpCode(201)
  async upload(@Req() req: Request, @Res() res: Response): Promise<void> {
    const resource = this.api.resource(Media);
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const file = uploadedFile(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const violations: Violation[] = [];
    let workspaceId: string | null = null;
    if (body.workspace !== undefined && body.workspace !== '') {
      workspaceId =
        typeof body.workspace === 'string'
          ? await this.api.data.resolveReference(
              this.api.resource(Workspace),
              principal,
              body.workspace,
            )
          : null;
      if (workspaceId && !canWriteWorkspace(principal, workspaceId))
        throw new ForbiddenError('Read-only access to this workspace.');
      if (!workspaceId)
        violations.push({
          propertyPath: 'workspace',
          message: `Item not found for "${String(body.workspace)}".`,
          code: null,
        });
    }
    const name = body.fileOriginalName;
    if (name !== undefined && typeof name !== 'string')
      throw new ApiError(400, 'The type of the "fileOriginalName" attribute must be "string".');
    if (violations.length) throw new ValidationError(violations);
    const id = await this.media.upload(principal, file, {
      workspaceId,
      originalName: name ?? null,
    });
    const record = await this.api.data.get(resource, principal, id);
    this.api.responder.item(req, res, resource, record, 201);
  }

  /**
   * The stored file. Public like a bucket URL: the key holds a random UUID. Only images whose
   * bytes were verified are shown inline; anything else downloads, sandboxed.
   */
  @Public()
  @Get('/media/files/:dir/:name')
  async file(
    @Param('dir') dir: string,
    @Param('name') name: string,
    @Res() res: Response,
  ): Promise<void> {
    const key = `${dir}/${name}`;
    if (!STORAGE_KEY.test(key)) throw new NotFoundError();
    const rows = await this.dataSource.query(
      `SELECT mime_type FROM media WHERE storage_key = $1 LIMIT 1`,
      [key],
    );
    if (rows.length === 0) throw new NotFoundError();
    const opened = await this.storage.open(key);
    if (!opened) throw new NotFoundError();
    const type = rows[0].mime_type as string;
    res.status(200);
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Length', String(opened.size));
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (!isImage(type)) res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    await pipeline(opened.stream, res);
  }
}
