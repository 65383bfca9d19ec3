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
      'Attaches the file uploaded in the same request (multipart, `file`) or an uploaded media (`{"media": "/media/<id>"}`), and answers the NoteAttachment. Only the note’s author or a team admin may attach.',
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
