import { NoteAttachmentUpload } from './note-attachment-upload';
import { Module } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { NoteReminderDispatcher } from './note-reminder-dispatcher';
import { NoteReminderStore } from './note-reminder-store';
import { NoteStore } from './note-store';
import {
  NoteAttachmentUploadController,
  NoteAttachmentsController,
  NoteRemindersController,
  NotesController,
} from './notes.controller';
import { NoteAttachmentsService } from './note-attachments.service';
import { NoteRemindersService } from './note-reminders.service';
import { NoteTransferStore } from './note-transfer-store';
import { NotesService } from './notes.service';

@Module({
  imports: [MediaModule, NotificationsModule],
  controllers: [
    NotesController,
    NoteAttachmentsController,
    NoteRemindersController,
    NoteAttachmentUploadController,
  ],
  providers: [
    NoteStore,
    NoteReminderStore,
    NotesService,
    NoteAttachmentsService,
    NoteAttachmentUpload,
    NoteRemindersService,
    NoteReminderDispatcher,
    NoteTransferStore,
  ],
  exports: [NotesService, NoteTransferStore],
})
export class NotesModule {}
