import { Injectable } from '@nestjs/common';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { removeUnusedMedia } from '../media/unused-media';
import { assertMayChange, noteOwner } from './note-access';
import { NoteAttachment } from './note-attachment.entity';

/**
 * Removing a file is changing the note: its author or a team admin. The media row goes with
 * it when no other record uses it.
 */
@Injectable()
export class NoteAttachmentsService implements ResourceHooks<NoteAttachment> {
  async beforeRemove(attachment: NoteAttachment, ctx: WriteContext): Promise<void> {
    const [row] = await ctx.em.query(`SELECT note_id FROM note_attachment WHERE id = $1`, [
      attachment.id,
    ]);
    assertMayChange(ctx.principal, await noteOwner(ctx.em, row.note_id));
  }

  async remove(attachment: NoteAttachment, ctx: WriteContext): Promise<void> {
    // DELETE ... RETURNING answers [rows, count] through TypeORM.
    const [[row]] = await ctx.em.query(
      `DELETE FROM note_attachment WHERE id = $1 RETURNING note_id, media_id`,
      [attachment.id],
    );
    // The note's main file goes with it.
    await ctx.em.query(
      `UPDATE note SET attachment_id = NULL WHERE id = $1 AND attachment_id = $2`,
      [row.note_id, row.media_id],
    );
    // So does the media, unless another record uses it (its file then goes after commit).
    await removeUnusedMedia(ctx.em, [row.media_id]);
  }
}
