import { Controller } from '@nestjs/common';
import { visibleFromInput } from '../access/access-target';
import type { Principal } from '../access/principal';
import type { ActionContext, UploadedFile } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import type { SentFile } from '../hydra/actions/action-result';
import { ResourceController } from '../hydra/controller/resource-controller';
import {
  ApiError,
  NotFoundError,
  ValidationError,
  ViolationCodes,
} from '../common/errors/api-errors';
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
      'A multipart body with the file in the part `file`, and optionally the `workspace` it belongs to and the `fileOriginalName` to keep. Answers the Media record, whose `filePath` serves the bytes.',
    input: MediaUploadInput,
    output: { item: Media },
    status: 201,
    access: 'workspace:write',
    workspace: visibleFromInput(Workspace, 'workspace'),
    uploads: true,
  })
  async upload(
    input: MediaUploadInput,
    principal: Principal,
    context: ActionContext<'workspace?'>,
  ) {
    const file = uploadedFile(context);
    const workspaceId = context.workspaceId;
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
   * sandboxed.
   */
  @Action({
    method: 'GET',
    path: '/media/files/:dir/:name',
    summary: 'Downloads a stored media file.',
    description:
      'Streams the bytes with the stored media type, cached for a year; the path (the Media record’s `filePath`) holds a random UUID and is the capability. Only verified images are shown inline, anything else is a sandboxed attachment.',
    output: { file: ['*/*'] },
    access: 'public',
  })
  async file(
    _input: unknown,
    _principal: Principal | null,
    context: ActionContext,
  ): Promise<SentFile> {
    const { dir, name } = context.params;
    const key = `${dir}/${name}`;
    if (!STORAGE_KEY.test(key)) throw new NotFoundError();
    const type = await this.media.storedType(key);
    if (type === null) throw new NotFoundError();
    const opened = await this.storage.open(key);
    if (!opened) throw new NotFoundError();
    return {
      type,
      body: opened.stream,
      length: opened.size,
      headers: {
        'Cache-Control': 'public, max-age=31536000, immutable',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cross-Origin-Resource-Policy': 'cross-origin',
        ...(isImage(type) ? {} : { 'Content-Disposition': `attachment; filename="${name}"` }),
      },
    };
  }
}
