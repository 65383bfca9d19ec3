import { Injectable } from '@nestjs/common';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { NotFoundError } from '../common/errors/api-errors';
import { removeUnusedMedia } from '../media/unused-media';
import { assertMayChange, noteOwner } from './note-access';
import { NoteAttachment } from './note-attachment.entity';
import { NoteStore } from './note-store';

/**
 * Removing a file is changing the note: its author or a team admin. The media row goes with
 * it when no other record uses it.
 */
@Injectable()
export class NoteAttachmentsService implements ResourceHooks<NoteAttachment> {
  constructor(private readonly store: NoteStore) {}

  async beforeRemove(attachment: NoteAttachment, ctx: WriteContext): Promise<void> {
    const noteId = await this.store.attachmentNote(ctx.em, attachment.id);
    if (noteId === undefined) throw new NotFoundError();
    assertMayChange(ctx.principal, await noteOwner(this.store, ctx.em, noteId));
  }

  async remove(attachment: NoteAttachment, ctx: WriteContext): Promise<void> {
    const row = await this.store.deleteAttachment(ctx.em, attachment.id);
    if (!row) throw new NotFoundError();
    // The note's main file goes with it.
    await this.store.clearAttachment(ctx.em, row.note_id, row.media_id);
    // So does the media, unless another record uses it (its file then goes after commit).
    await removeUnusedMedia(ctx.em, [row.media_id]);
  }
}
