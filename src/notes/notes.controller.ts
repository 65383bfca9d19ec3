import { Controller } from '@nestjs/common';
import { ownerOfParam } from '../access/access-target';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { requiredFile } from '../hydra/actions/action-files';
import { ResourceController } from '../hydra/controller/resource-controller';
import { NoteAttachment } from './note-attachment.entity';
import { NoteAttachmentUpload } from './note-attachment-upload';
import { NoteAttachmentUploadInput } from './note-attachment-upload.input';
import { NoteAttachmentsService } from './note-attachments.service';
import { NoteReminder } from './note-reminder.entity';
import { NoteRemindersService } from './note-reminders.service';
import { Note } from './note.entity';
import { NotesService } from './notes.service';

export class NotesController extends ResourceController(Note, NotesService) {}
export class NoteAttachmentsController extends ResourceController(
  NoteAttachment,
  NoteAttachmentsService,
) {}
export class NoteRemindersController extends ResourceController(
  NoteReminder,
  NoteRemindersService,
) {}

/** `POST /notes/{id}/attachments`: attaches a file to a note. */
@Controller()
export class NoteAttachmentUploadController {
  constructor(private readonly uploads: NoteAttachmentUpload) {}

  @Action({
    uploads: true,
    method: 'POST',
    path: '/notes/:id/attachments',
    summary: 'Attaches a file to a note.',
    description:
      'The file uploaded in the same request (multipart, field `file`) or already uploaded (`{"media": "/media/<id>"}`); answers the NoteAttachment (201). Needs write access to the note\u2019s workspace (read-only members: 403) and to be the note\u2019s author or a team admin (403); another tenant\u2019s note is 404. 422 without a file or media, for an empty file, a media the caller does not see, or a file already attached.',
    input: NoteAttachmentUploadInput,
    output: { item: NoteAttachment },
    status: 201,
    access: 'workspace:write',
    workspace: ownerOfParam(Note, 'id'),
  })
  attach(input: NoteAttachmentUploadInput, principal: Principal, context: ActionContext) {
    const uploaded = context.header('content-type')?.toLowerCase().startsWith('multipart/');
    return this.uploads.attach(
      principal,
      context.params.id,
      uploaded ? { file: requiredFile(context) } : { media: input.media },
    );
  }
}
