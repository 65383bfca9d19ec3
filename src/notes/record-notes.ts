import type { WriteContext } from '../hydra/core/resource-hooks';
import type { SqlRunner } from '../database/query';
import { MediaStore } from '../media/media-store';
import { removeUnusedMedia } from '../media/unused-media';
import { attachMedia } from '../media/workspace-media';
import { NoteStore, type NoteSelection } from './note-store';

/**
 * The stores of these plain functions: they hold no connection, only the caller's runner (the
 * deleting or moving transaction of whichever module calls).
 */
const notes = new NoteStore();
const media = new MediaStore();

/** Records of `entity` (a collection) stored in `table`, deleted with the parent named by `column`. */
export interface CascadedRecords {
  entity: string;
  table: string;
  column: string;
}

/**
 * For each collection a note may be about, the notable records the database deletes with one
 * of its records (`FOREIGN KEY ... ON DELETE CASCADE`): an order's items, an order item's
 * shipment items, a shipment's items and tracking checkpoints, a workflow's runs, a widget's
 * logs. removeNotesOf takes their notes too, so it must run before the delete. Kept equal to
 * the catalogue by test/orphans.e2e-spec.ts.
 */
export const CASCADED_RECORDS: Readonly<Record<string, readonly CascadedRecords[]>> = {
  orders: [{ entity: 'order_items', table: 'order_item', column: 'order_id' }],
  order_items: [{ entity: 'shipment_items', table: 'shipment_item', column: 'order_item_id' }],
  shipments: [
    { entity: 'shipment_items', table: 'shipment_item', column: 'shipment_id' },
    { entity: 'tracking_checkpoints', table: 'tracking_checkpoint', column: 'shipment_id' },
  ],
  workflows: [{ entity: 'workflow_runs', table: 'workflow_run', column: 'workflow_id' }],
  widgets: [{ entity: 'widget_logs', table: 'widget_log', column: 'widget_id' }],
};

/**
 * Removes the notes on records that are being deleted (`entity` is their collection:
 * `orders`, `order_items`, `tracking_pages`, ...), and on the records the database deletes
 * with them (CASCADED_RECORDS; so call it before the delete), in the deleting transaction,
 * whoever wrote them: with their reminders and attachment rows (FK cascades) and the media of
 * those attachments that nothing else uses (their files are removed after commit by the media
 * file sweeper). Called by the delete rules of the records, so every delete path (DELETE,
 * delete_records_batch, the duplicates of a merge, which have handed their notes to the target
 * by then, the items a shipment PUT leaves out, ...) takes them. Returns how many notes went.
 */
export async function removeNotesOf(
  em: SqlRunner,
  workspaceId: string,
  entity: string,
  entityIds: string[],
): Promise<number> {
  if (entityIds.length === 0) return 0;
  const files: string[] = [];
  let count = 0;
  for (const [name, ids] of await withCascaded(em, entity, entityIds)) {
    const gone = await deleteNotes(em, { workspaceId, entity: name, entityIds: ids });
    count += gone.count;
    files.push(...gone.mediaIds);
  }
  await removeUnusedMedia(em, files);
  return count;
}

/**
 * removeNotesOf for rows already deleted (`DELETE ... RETURNING id, workspace_id`), grouped by
 * workspace. Only for collections without CASCADED_RECORDS: the cascade has taken those.
 */
export async function removeNotesOfDeleted(
  em: SqlRunner,
  entity: string,
  rows: ReadonlyArray<{ id: string; workspace_id: string }>,
): Promise<number> {
  if (CASCADED_RECORDS[entity])
    throw new Error(`notes of ${entity} go before the delete (removeNotesOf)`);
  const byWorkspace = new Map<string, string[]>();
  for (const r of rows)
    byWorkspace.set(r.workspace_id, [...(byWorkspace.get(r.workspace_id) ?? []), r.id]);
  let count = 0;
  for (const [workspaceId, ids] of byWorkspace)
    count += await removeNotesOf(em, workspaceId, entity, ids);
  return count;
}

/**
 * removeNotesOf for the record a DELETE of `ctx.resource` is about to remove (its collection
 * is the resource's path, its workspace read from the row): for the `beforeRemove` or `remove`
 * hook of a resource notes may be about.
 */
export async function removeNotesOfRecord(ctx: WriteContext, id: string): Promise<number> {
  const { em, resource } = ctx;
  const workspaceId = await notes.workspaceOfRecord(em, resource, id);
  if (workspaceId === undefined) return 0;
  return removeNotesOf(em, workspaceId, resource.path.slice(1), [id]);
}

/**
 * Moves the notes on records that changed workspace (`entity` is their collection), and on the
 * records that belong to them (CASCADED_RECORDS, which the caller moves along: a workflow's
 * runs), to `workspaceId`, in the moving transaction: with their reminders and attachment rows,
 * and a media row of the new workspace for each of their files (the old row goes once nothing
 * of the old workspace uses it; the stored file stays). So the old workspace's members no
 * longer see them and the new one's do. Call it with the records locked (a PUT's load holds
 * its record FOR UPDATE; the cascaded ones are locked here): a note being written on one
 * meanwhile commits first and is moved, or then finds its record gone from its workspace.
 * Returns how many notes moved.
 */
export async function moveNotesOf(
  em: SqlRunner,
  entity: string,
  entityIds: string[],
  workspaceId: string,
): Promise<number> {
  if (entityIds.length === 0) return 0;
  const moved: string[] = [];
  for (const [name, ids] of await withCascaded(em, entity, entityIds)) {
    moved.push(...(await notes.moveNotesOf(em, name, ids, workspaceId)));
  }
  if (moved.length === 0) return 0;
  await notes.moveParts(em, moved, workspaceId);
  await moveNoteMedia(em, moved, workspaceId);
  return moved.length;
}

/** The files of the moved notes get media rows of their new workspace (MediaService.attach). */
async function moveNoteMedia(em: SqlRunner, noteIds: string[], workspaceId: string) {
  const used = await notes.mediaOfNotes(em, noteIds);
  const files = used.length ? await media.outsideWorkspace(em, used, workspaceId) : [];
  for (const old of files) {
    const id = await attachMedia(em, old, workspaceId);
    if (id !== old) await notes.replaceMedia(em, noteIds, old, id);
  }
  await removeUnusedMedia(em, files);
}

/**
 * Deletes one note (DELETE /notes/{id}) with its reminders and attachment rows, and the media
 * of its files that nothing else uses, in the caller's transaction.
 */
export async function removeNote(em: SqlRunner, noteId: string): Promise<void> {
  const gone = await deleteNotes(em, { noteId });
  await removeUnusedMedia(em, gone.mediaIds);
}

/** The records named and those deleted with them, per collection. */
async function withCascaded(
  em: SqlRunner,
  entity: string,
  ids: string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, Set<string>>();
  const visit = async (name: string, list: string[]): Promise<void> => {
    if (list.length === 0) return;
    const seen = out.get(name) ?? new Set<string>();
    out.set(name, seen);
    list.forEach((id) => seen.add(id));
    for (const child of CASCADED_RECORDS[name] ?? []) {
      // Locked as the cascade would lock them, but now: a note being written on one of them
      // (NotesService holds a key-share lock on its record) commits first and is found below.
      await visit(child.entity, await notes.lockChildren(em, child, list));
    }
  };
  await visit(entity, ids);
  return new Map([...out].map(([name, set]) => [name, [...set]]));
}

/** Deletes the selected notes; answers how many and the media they used. */
async function deleteNotes(
  em: SqlRunner,
  selection: NoteSelection,
): Promise<{ count: number; mediaIds: string[] }> {
  const mediaIds = await notes.mediaOfSelected(em, selection);
  return { count: await notes.deleteSelected(em, selection), mediaIds };
}
