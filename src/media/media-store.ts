import { Injectable } from '@nestjs/common';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import { quoteIdent } from '../hydra/core/sql-query';

/** A media row as records embed it. */
export interface MediaSummaryRow {
  id: string;
  file_path: string;
  mime_type: string;
}

/** The columns of a new media row. */
export interface NewMediaRow {
  workspaceId: string | null;
  uploadedById: string;
  storageKey: string;
  filePath: string;
  originalName: string | null;
  mimeType: string;
  size: number;
}

/** A stored file the media_file_gc trigger queued, and whether a media row still uses it. */
export interface QueuedFileRow {
  storage_key: string;
  in_use: boolean;
}

/** Members of a media row other modules' records show (`mediaFieldSql`). */
const MEDIA_FIELDS = {
  filePath: 'file_path',
  originalName: 'original_name',
  mimeType: 'mime_type',
  size: 'size',
} as const;

export type MediaField = keyof typeof MEDIA_FIELDS;

/**
 * SQL of one member of the media row whose id is `mediaIdSql` (an SQL expression over the
 * caller's row), null without one: a workspace's logo path, a note attachment's name.
 */
export function mediaFieldSql(field: MediaField, mediaIdSql: string): string {
  return `(SELECT m.${MEDIA_FIELDS[field]} FROM media m WHERE m.id = ${mediaIdSql})`;
}

interface MediaReference {
  table: string;
  column: string;
}

/** Columns with a foreign key to media(id), read once from the catalogue. */
let references: Promise<MediaReference[]> | null = null;

/**
 * The SQL of the media module (`media`, `media_file_gc`). It holds no connection: every
 * method takes the caller's runner (its transaction, or the DataSource), so that the plain
 * functions other modules call in their own transactions (attachMedia, removeUnusedMedia)
 * use it as well.
 */
@Injectable()
export class MediaStore {
  /** The media type of a media row using the stored file `key`. */
  async storedType(runner: SqlRunner, key: string): Promise<string | null> {
    const row = await queryOne<{ mime_type: string }>(
      runner,
      `SELECT mime_type FROM media WHERE storage_key = $1 LIMIT 1`,
      [key],
    );
    return row?.mime_type ?? null;
  }

  async insert(runner: SqlRunner, media: NewMediaRow): Promise<string> {
    const [row] = await query<{ id: string }>(
      runner,
      `INSERT INTO media (workspace_id, uploaded_by_id, storage_key, file_path, original_name, mime_type, size)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [
        media.workspaceId,
        media.uploadedById,
        media.storageKey,
        media.filePath,
        media.originalName,
        media.mimeType,
        media.size,
      ],
    );
    return row.id;
  }

  async summary(runner: SqlRunner, id: string): Promise<MediaSummaryRow | undefined> {
    return queryOne<MediaSummaryRow>(
      runner,
      `SELECT id, file_path, mime_type FROM media WHERE id = $1`,
      [id],
    );
  }

  /** Locks the media row; its workspace (null: unattached), undefined when it is gone. */
  async lockOwner(
    runner: SqlRunner,
    id: string,
  ): Promise<{ workspaceId: string | null } | undefined> {
    const row = await queryOne<{ workspace_id: string | null }>(
      runner,
      `SELECT workspace_id FROM media WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return row && { workspaceId: row.workspace_id };
  }

  /** Gives an unattached media row to a workspace. */
  async claim(runner: SqlRunner, id: string, workspaceId: string): Promise<void> {
    await execute(runner, `UPDATE media SET workspace_id = $2 WHERE id = $1`, [id, workspaceId]);
  }

  /** A new media row of `workspaceId` for the same stored file; its id. */
  async copyTo(runner: SqlRunner, id: string, workspaceId: string): Promise<string> {
    const [row] = await query<{ id: string }>(
      runner,
      `INSERT INTO media (workspace_id, uploaded_by_id, storage_key, file_path, original_name, mime_type, size)
       SELECT $2, uploaded_by_id, storage_key, file_path, original_name, mime_type, size FROM media WHERE id = $1
       RETURNING id`,
      [id, workspaceId],
    );
    return row.id;
  }

  /** Those of the media rows that are not of the workspace, in id order. */
  async outsideWorkspace(
    runner: SqlRunner,
    ids: readonly string[],
    workspaceId: string,
  ): Promise<string[]> {
    const rows = await query<{ id: string }>(
      runner,
      `SELECT id FROM media WHERE id = ANY($1::uuid[]) AND workspace_id IS DISTINCT FROM $2
        ORDER BY id`,
      [ids, workspaceId],
    );
    return rows.map((r) => r.id);
  }

  /** Locks the media rows, in id order (the order every writer takes them in). */
  async lock(runner: SqlRunner, ids: readonly string[]): Promise<void> {
    await execute(
      runner,
      `SELECT id FROM media WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
      [ids],
    );
  }

  /**
   * Deletes those of the media rows that no foreign key to media(id) points at (found in the
   * catalogue, so a new use needs no registration here); answers the ids deleted.
   */
  async deleteUnused(runner: SqlRunner, ids: readonly string[]): Promise<string[]> {
    const unused = (await this.references(runner))
      .map(
        ({ table, column }) =>
          `NOT EXISTS (SELECT 1 FROM ${quoteIdent(table)} r WHERE r.${quoteIdent(column)} = m.id)`,
      )
      .join(' AND ');
    const rows = await query<{ id: string }>(
      runner,
      `DELETE FROM media m WHERE m.id = ANY($1::uuid[])${unused ? ` AND ${unused}` : ''} RETURNING m.id`,
      [ids],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Takes up to `limit` stored files off the removal queue (media_file_gc), skipping those
   * another node holds; each says whether a media row still uses it.
   */
  async takeQueuedFiles(runner: SqlRunner, limit: number): Promise<QueuedFileRow[]> {
    return query<QueuedFileRow>(
      runner,
      `DELETE FROM media_file_gc g
        WHERE g.storage_key IN (SELECT storage_key FROM media_file_gc ORDER BY queued_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING g.storage_key, EXISTS (SELECT 1 FROM media m WHERE m.storage_key = g.storage_key) AS in_use`,
      [limit],
    );
  }

  private references(runner: SqlRunner): Promise<MediaReference[]> {
    references ??= query<{ tbl: string; col: string }>(
      runner,
      `SELECT c.conrelid::regclass::text AS tbl, a.attname AS col
         FROM pg_constraint c
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        WHERE c.contype = 'f' AND c.confrelid = 'media'::regclass
          AND array_length(c.conkey, 1) = 1
        ORDER BY 1, 2`,
    )
      .then((rows) => rows.map((r) => ({ table: r.tbl.replace(/^"|"$/g, ''), column: r.col })))
      .catch((error: unknown) => {
        references = null;
        throw error;
      });
    return references;
  }
}
