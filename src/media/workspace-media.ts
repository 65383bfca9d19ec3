import type { EntityManager } from 'typeorm';

/**
 * The id of a media row of `workspaceId` showing the same file: an unattached upload is
 * claimed by the workspace, one of another workspace is copied (the file is shared), so each
 * workspace's members see the media its records use. A plain function (not only
 * MediaService.attach) for the modules that move records, and their files, between workspaces
 * in SQL of their own (record-notes.ts).
 */
export async function attachMedia(
  em: EntityManager,
  mediaId: string,
  workspaceId: string,
): Promise<string> {
  const rows = await em.query(`SELECT workspace_id FROM media WHERE id = $1 FOR UPDATE`, [mediaId]);
  if (rows.length === 0) throw new Error(`media ${mediaId} vanished`);
  const owner = rows[0].workspace_id as string | null;
  if (owner === workspaceId) return mediaId;
  if (owner === null) {
    await em.query(`UPDATE media SET workspace_id = $2 WHERE id = $1`, [mediaId, workspaceId]);
    return mediaId;
  }
  const copy = await em.query(
    `INSERT INTO media (workspace_id, uploaded_by_id, storage_key, file_path, original_name, mime_type, size)
     SELECT $2, uploaded_by_id, storage_key, file_path, original_name, mime_type, size FROM media WHERE id = $1
     RETURNING id`,
    [mediaId, workspaceId],
  );
  return copy[0].id as string;
}
