import type { EntityManager } from 'typeorm';
import { removeUnusedMedia } from '../media/unused-media';

/**
 * Removes the notes on records that are being deleted (`entity` is their collection,
 * `orders` or `shipments`), in the deleting transaction, whoever wrote them: with their
 * reminders and attachment rows (FK cascades) and the media of those attachments that nothing
 * else uses (their files are removed after commit by the media file sweeper). Called by the
 * delete rules of the records, so every delete path (DELETE, delete_records_batch, the
 * duplicates of a merge, which have handed their notes to the target by then) takes them.
 * Returns how many notes went.
 */
export async function removeNotesOf(
  em: EntityManager,
  workspaceId: string,
  entity: string,
  entityIds: string[],
): Promise<number> {
  if (entityIds.length === 0) return 0;
  const where = `n.workspace_id = $1 AND n.entity = $2 AND n.entity_id = ANY($3::uuid[])`;
  const params = [workspaceId, entity, entityIds];
  const files: Array<{ media_id: string }> = await em.query(
    `SELECT na.media_id FROM note n JOIN note_attachment na ON na.note_id = n.id WHERE ${where}
     UNION
     SELECT n.attachment_id FROM note n WHERE ${where} AND n.attachment_id IS NOT NULL`,
    params,
  );
  // DELETE ... RETURNING answers [rows, count] through TypeORM.
  const [, count]: [unknown, number] = await em.query(`DELETE FROM note n WHERE ${where}`, params);
  await removeUnusedMedia(
    em,
    files.map((f) => f.media_id),
  );
  return count;
}
