import type { EntityManager } from 'typeorm';
import { quoteIdent } from '../hydra/core/sql-query';
import type { WriteContext } from '../hydra/core/resource-hooks';
import { removeUnusedMedia } from '../media/unused-media';
import { attachMedia } from '../media/workspace-media';

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
  em: EntityManager,
  workspaceId: string,
  entity: string,
  entityIds: string[],
): Promise<number> {
  if (entityIds.length === 0) return 0;
  const files: string[] = [];
  let count = 0;
  for (const [name, ids] of await withCascaded(em, entity, entityIds)) {
    const gone = await deleteNotes(
      em,
      `n.workspace_id = $1 AND n.entity = $2 AND n.entity_id = ANY($3::uuid[])`,
      [workspaceId, name, ids],
    );
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
  em: EntityManager,
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
  const [row]: Array<{ workspace_id: string }> = await em.query(
    `SELECT workspace_id FROM ${quoteIdent(resource.table)} WHERE ${quoteIdent(resource.idColumn)} = $1`,
    [id],
  );
  if (!row) return 0;
  return removeNotesOf(em, row.workspace_id, resource.path.slice(1), [id]);
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
  em: EntityManager,
  entity: string,
  entityIds: string[],
  workspaceId: string,
): Promise<number> {
  if (entityIds.length === 0) return 0;
  const moved: string[] = [];
  for (const [name, ids] of await withCascaded(em, entity, entityIds)) {
    // UPDATE ... RETURNING answers [rows, count] through TypeORM.
    const [rows]: [Array<{ id: string }>, number] = await em.query(
      `UPDATE note SET workspace_id = $1
        WHERE entity = $2 AND entity_id = ANY($3::uuid[]) AND workspace_id <> $1 RETURNING id`,
      [workspaceId, name, ids],
    );
    moved.push(...rows.map((r) => r.id));
  }
  if (moved.length === 0) return 0;
  for (const table of ['note_reminder', 'note_attachment'])
    await em.query(`UPDATE ${table} SET workspace_id = $1 WHERE note_id = ANY($2::uuid[])`, [
      workspaceId,
      moved,
    ]);
  await moveNoteMedia(em, moved, workspaceId);
  return moved.length;
}

/** The files of the moved notes get media rows of their new workspace (MediaService.attach). */
async function moveNoteMedia(em: EntityManager, noteIds: string[], workspaceId: string) {
  const files: Array<{ id: string }> = await em.query(
    `SELECT m.id FROM media m
      WHERE m.workspace_id IS DISTINCT FROM $2
        AND m.id IN (SELECT na.media_id FROM note_attachment na WHERE na.note_id = ANY($1::uuid[])
                     UNION
                     SELECT n.attachment_id FROM note n WHERE n.id = ANY($1::uuid[]))
      ORDER BY m.id`,
    [noteIds, workspaceId],
  );
  for (const { id: old } of files) {
    const id = await attachMedia(em, old, workspaceId);
    if (id === old) continue;
    await em.query(
      `UPDATE note SET attachment_id = $3 WHERE id = ANY($1::uuid[]) AND attachment_id = $2`,
      [noteIds, old, id],
    );
    await em.query(
      `UPDATE note_attachment SET media_id = $3 WHERE note_id = ANY($1::uuid[]) AND media_id = $2`,
      [noteIds, old, id],
    );
  }
  await removeUnusedMedia(
    em,
    files.map((f) => f.id),
  );
}

/**
 * Deletes one note (DELETE /notes/{id}) with its reminders and attachment rows, and the media
 * of its files that nothing else uses, in the caller's transaction.
 */
export async function removeNote(em: EntityManager, noteId: string): Promise<void> {
  const gone = await deleteNotes(em, `n.id = $1`, [noteId]);
  await removeUnusedMedia(em, gone.mediaIds);
}

/** The records named and those deleted with them, per collection. */
async function withCascaded(
  em: EntityManager,
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
      const rows: Array<{ id: string }> = await em.query(
        `SELECT id FROM ${quoteIdent(child.table)} WHERE ${quoteIdent(child.column)} = ANY($1::uuid[])
          ORDER BY id FOR UPDATE`,
        [list],
      );
      await visit(
        child.entity,
        rows.map((r) => r.id),
      );
    }
  };
  await visit(entity, ids);
  return new Map([...out].map(([name, set]) => [name, [...set]]));
}

/** Deletes the notes `where` selects (alias `n`); answers how many and the media they used. */
async function deleteNotes(
  em: EntityManager,
  where: string,
  params: unknown[],
): Promise<{ count: number; mediaIds: string[] }> {
  const files: Array<{ media_id: string }> = await em.query(
    `SELECT na.media_id FROM note n JOIN note_attachment na ON na.note_id = n.id WHERE ${where}
     UNION
     SELECT n.attachment_id FROM note n WHERE ${where} AND n.attachment_id IS NOT NULL`,
    params,
  );
  // DELETE ... RETURNING answers [rows, count] through TypeORM.
  const [, count]: [unknown, number] = await em.query(`DELETE FROM note n WHERE ${where}`, params);
  return { count, mediaIds: files.map((f) => f.media_id) };
}
