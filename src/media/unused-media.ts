import type { EntityManager } from 'typeorm';
import { quoteIdent } from '../hydra/core/sql-query';

interface MediaReference {
  table: string;
  column: string;
}

/** Columns with a foreign key to media(id), read once from the catalogue. */
let references: Promise<MediaReference[]> | null = null;

function mediaReferences(em: EntityManager): Promise<MediaReference[]> {
  references ??= em
    .query(
      `SELECT c.conrelid::regclass::text AS tbl, a.attname AS col
         FROM pg_constraint c
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        WHERE c.contype = 'f' AND c.confrelid = 'media'::regclass
          AND array_length(c.conkey, 1) = 1
        ORDER BY 1, 2`,
    )
    .then((rows: Array<{ tbl: string; col: string }>) =>
      rows.map((r) => ({ table: r.tbl.replace(/^"|"$/g, ''), column: r.col })),
    )
    .catch((error: unknown) => {
      references = null;
      throw error;
    });
  return references;
}

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
export async function removeUnusedMedia(em: EntityManager, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  await em.query(`SELECT id FROM media WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [
    unique,
  ]);
  const unused = (await mediaReferences(em))
    .map(
      ({ table, column }) =>
        `NOT EXISTS (SELECT 1 FROM ${quoteIdent(table)} r WHERE r.${quoteIdent(column)} = m.id)`,
    )
    .join(' AND ');
  // DELETE ... RETURNING answers [rows, count] through TypeORM.
  const [rows]: [Array<{ id: string }>, number] = await em.query(
    `DELETE FROM media m WHERE m.id = ANY($1::uuid[])${unused ? ` AND ${unused}` : ''} RETURNING m.id`,
    [unique],
  );
  return rows.map((r) => r.id);
}
