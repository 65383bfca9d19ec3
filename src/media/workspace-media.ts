import type { SqlRunner } from '../database/query';
import { MediaStore } from './media-store';

/** The store of this plain function: it holds no connection, only the caller's runner. */
const store = new MediaStore();

/**
 * The id of a media row of `workspaceId` showing the same file: an unattached upload is
 * claimed by the workspace, one of another workspace is copied (the file is shared), so each
 * workspace's members see the media its records use. A plain function (not only
 * MediaService.attach) for the modules that move records, and their files, between workspaces
 * in SQL of their own (record-notes.ts).
 */
export async function attachMedia(
  em: SqlRunner,
  mediaId: string,
  workspaceId: string,
): Promise<string> {
  const owner = await store.lockOwner(em, mediaId);
  if (!owner) throw new Error(`media ${mediaId} vanished`);
  if (owner.workspaceId === workspaceId) return mediaId;
  if (owner.workspaceId === null) {
    await store.claim(em, mediaId, workspaceId);
    return mediaId;
  }
  return store.copyTo(em, mediaId, workspaceId);
}
