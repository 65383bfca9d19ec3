import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { HydraApi, routeParam } from '../hydra/controller/hydra-api';
import { ResourceController } from '../hydra/controller/resource-controller';
import { NotFoundError, ValidationError, ViolationCodes } from '../hydra/errors/api-errors';
import { typeError } from '../hydra/write/denormalizer';
import { uploadedFile } from '../media/media.controller';
import { Media } from '../media/media.entity';
import { MediaService } from '../media/media.service';
import { assertMayChange, noteOwner } from './note-access';
import { NoteAttachment } from './note-attachment.entity';
import { NoteAttachmentsService } from './note-attachments.service';
import { NoteReminder } from './note-reminder.entity';
import { NoteRemindersService } from './note-reminders.service';
import { Note } from './note.entity';
import { NotesService } from './notes.service';
import { AcceptsUploads } from '../hydra/serialization/multipart.middleware';

export class NotesController extends ResourceController(Note, NotesService) {}
export class NoteAttachmentsController extends ResourceController(
  NoteAttachment,
  NoteAttachmentsService,
) {}
export class NoteRemindersController extends ResourceController(
  NoteReminder,
  NoteRemindersService,
) {}

/**
 * `POST /notes/{id}/attachments`: attaches a file to a note, uploaded in the same request
 * (multipart, field `file`) or already uploaded (`{"media": "/media/<id>"}`). Answers 201 with
 * the NoteAttachment.
 */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class NoteAttachmentUploadController {
  constructor(
    private readonly api: HydraApi,
    private readonly media: MediaService,
    private readonly dataSource: DataSource,
  ) {}

  @Post('/notes/:id/attachments')
  @AcceptsUploads()
  @HttpCode(201)
  async attach(@Req() req: Request, @Res() res: Response): Promise<void> {
    const resource = this.api.resource(NoteAttachment);
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const noteId = routeParam(req, 'id');
    if (!(await this.api.data.visible(this.api.resource(Note), principal, noteId)))
      throw new NotFoundError();
    const multipart = req.is('multipart/form-data');
    const file = multipart ? uploadedFile(req) : null;
    let mediaId: string | null = null;
    if (!file) {
      const body = this.api.body(req);
      const iri = body.media;
      if (iri === undefined || iri === null || iri === '')
        throw ValidationError.of(
          'media',
          'This value should not be blank.',
          ViolationCodes.notBlank,
        );
      if (typeof iri !== 'string') throw typeError('media', 'string', iri);
      mediaId = iri.startsWith('/media/')
        ? await this.api.data.resolveReference(this.api.resource(Media), principal, iri)
        : null;
      if (!mediaId) throw ValidationError.of('media', `Item not found for "${iri}".`);
    }
    const id = await this.dataSource.transaction(async (em) => {
      const owner = await noteOwner(em, noteId);
      assertMayChange(principal, owner);
      const stored = file
        ? await this.media.upload(principal, file, { workspaceId: owner.workspaceId, em })
        : await this.media.attach(em, mediaId!, owner.workspaceId);
      const rows = await em.query(
        `INSERT INTO note_attachment (workspace_id, note_id, media_id) VALUES ($1, $2, $3)
         ON CONFLICT (note_id, media_id) DO NOTHING RETURNING id`,
        [owner.workspaceId, noteId, stored],
      );
      if (rows.length === 0)
        throw ValidationError.of(
          'media',
          'This file is already attached to the note.',
          ViolationCodes.unique,
        );
      return rows[0].id as string;
    });
    const record = await this.api.data.get(resource, principal, id);
    this.api.responder.item(req, res, resource, record, 201);
  }
}
