import { Module } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import {
  NoteAttachmentUploadController,
  NoteAttachmentsController,
  NoteRemindersController,
  NotesController,
} from './notes.controller';
import { NoteAttachmentsService } from './note-attachments.service';
import { NoteRemindersService } from './note-reminders.service';
import { NotesService } from './notes.service';

@Module({
  imports: [MediaModule],
  controllers: [
    NotesController,
    NoteAttachmentsController,
    NoteRemindersController,
    NoteAttachmentUploadController,
  ],
  providers: [NotesService, NoteAttachmentsService, NoteRemindersService],
  exports: [NotesService],
})
export class NotesModule {}
