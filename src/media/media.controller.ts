import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { visibleFromInput } from '../access/access-target';
import { Access } from '../access/access.decorator';
import type { Principal } from '../access/principal';
import type { ActionContext, UploadedFile } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { ResourceController } from '../hydra/controller/resource-controller';
import {
  ApiError,
  NotFoundError,
  ValidationError,
  ViolationCodes,
} from '../hydra/errors/api-errors';
import { Workspace } from '../workspaces/workspace.entity';
import { FileStorage, STORAGE_KEY } from './file-storage';
import { MediaUploadInput } from './media-upload.input';
import { Media } from './media.entity';
import { MediaService } from './media.service';
import { isImage } from './sniff-media-type';

/** GET /media, GET /media/{id}: generated from the declaration. */
export class MediaController extends ResourceController(Media) {}

/** The uploaded file of a multipart request (`field`), or 415/422. */
export function uploadedFile(
  context: ActionContext,
  field = 'file',
): UploadedFile & { buffer: Buffer } {
  const type = context.header('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new ApiError(
      415,
      `The content-type "${type}" is not supported. Upload files as "multipart/form-data" (field "${field}").`,
    );
  }
  const file = context.files[field]?.[0];
  if (!file || !file.buffer)
    throw ValidationError.of(field, 'This value should not be null.', ViolationCodes.notNull);
  if (file.buffer.length === 0)
    throw ValidationError.of(field, 'An empty file is not allowed.', ViolationCodes.invalid);
  return file as UploadedFile & { buffer: Buffer };
}

/** Uploads, and the public file route behind `filePath`. */
@Controller()
export class MediaFilesController {
  constructor(
    private readonly media: MediaService,
    private readonly storage: FileStorage,
  ) {}

  @Action({
    method: 'POST',
    path: '/media',
    summary: 'Uploads a file (an image for logos and pages, or any document).',
    description:
      'A multipart/form-data body with the file in the part `file`; optional fields `workspace` (id or IRI of a workspace the caller may write: the media belongs to it at once) and `fileOriginalName` (the name to keep). Any signed-in user; with a workspace, full access to it (read-only members 403). Answers the Media record, whose `filePath` serves the bytes. Errors: 415 a body that is not multipart, 413 a file over the size limit, 400 wrong field types, 422 no file, an empty file, or a workspace the caller cannot see ("Item not found").',
    input: MediaUploadInput,
    output: { item: Media },
    status: 201,
    access: 'workspace:write',
    workspace: visibleFromInput(Workspace, 'workspace'),
    uploads: true,
  })
  async upload(input: MediaUploadInput, principal: Principal, context: ActionContext) {
    const file = uploadedFile(context);
    const [workspaceId] = context.located;
    if (input.workspace && !workspaceId) {
      throw new ValidationError([
        {
          propertyPath: 'workspace',
          message: `Item not found for "${input.workspace}".`,
          code: null,
        },
      ]);
    }
    return this.media.upload(principal, file, {
      workspaceId: workspaceId ?? null,
      originalName: input.fileOriginalName ?? null,
    });
  }

  /**
   * The stored file. Public like a bucket URL: the key holds a random UUID (a capability
   * URL). Only images whose bytes were verified are shown inline; anything else downloads,
   * sandboxed. It streams the bytes itself, so it is a plain route.
   */
  @Access('public')
  @ApiOperation({
    summary: 'Downloads a stored media file.',
    description:
      'Public: the path (the Media record\u2019s `filePath`) holds a random UUID and is the capability. Streams the bytes with the stored media type, cached for a year; only verified images are shown inline, anything else is an attachment with a sandboxing Content-Security-Policy. 404 for an unknown or removed file.',
  })
  @Get('/media/files/:dir/:name')
  async file(
    @Param('dir') dir: string,
    @Param('name') name: string,
    @Res() res: Response,
  ): Promise<void> {
    const key = `${dir}/${name}`;
    if (!STORAGE_KEY.test(key)) throw new NotFoundError();
    const type = await this.media.storedType(key);
    if (type === null) throw new NotFoundError();
    const opened = await this.storage.open(key);
    if (!opened) throw new NotFoundError();
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
