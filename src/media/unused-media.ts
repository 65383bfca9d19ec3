import type { SqlRunner } from '../database/query';
import { MediaStore } from './media-store';

/** The store of these plain functions: it holds no connection, only the caller's runner. */
const store = new MediaStore();

/**
 * Deletes those of the given media rows that no record uses any more (no foreign key to
 * media(id) points at them: another note, a workspace logo, ... found in the catalogue, so a
 * new use needs no registration here), in the caller's transaction. The media_file_gc trigger
 * queues their stored files, which MediaService.sweepOrphanFiles removes after commit (a file
 * shared with a media row of another workspace stays). Returns the ids deleted.
 *
 * The rows are locked first, in id order: a concurrent write that is attaching one of them
 * (MediaService.attach locks it too) either commits first, and the next statement, on a fresh
 * snapshot, sees its reference, or finds the row gone.
 */
export async function removeUnusedMedia(em: SqlRunner, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  await store.lock(em, unique);
  return store.deleteUnused(em, unique);
}
