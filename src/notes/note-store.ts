import { Injectable } from '@nestjs/common';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import type { ResourceMeta } from '../hydra/core/resource-meta';
import { quoteIdent, type SqlQuery } from '../hydra/core/sql-query';
import { workspaceTeamIdSql } from '../workspaces/workspace-page-store';

/** A note's workspace, author and team. */
export interface NoteOwnerRow {
  workspace_id: string;
  user_id: string | null;
  team_id: string;
}

/** Which notes a delete takes: those on records of one collection, or one note. */
export type NoteSelection =
  { workspaceId: string; entity: string; entityIds: readonly string[] } | { noteId: string };

/** A table whose rows a parent's delete cascades to, by the column naming the parent. */
export interface ChildRows {
  table: string;
  column: string;
}

function whereOf(selection: NoteSelection): { where: string; params: unknown[] } {
  return 'noteId' in selection
    ? { where: 'n.id = $1', params: [selection.noteId] }
    : {
        where: 'n.workspace_id = $1 AND n.entity = $2 AND n.entity_id = ANY($3::uuid[])',
        params: [selection.workspaceId, selection.entity, selection.entityIds],
      };
}

/**
 * The SQL of notes and their attachment rows (`note`, `note_attachment`). It holds no
 * connection: every method takes the caller's runner (its transaction), so that the plain
 * functions other modules call in their deleting or moving transactions (record-notes.ts) use
 * it too.
 */
@Injectable()
export class NoteStore {
  async owner(runner: SqlRunner, noteId: string): Promise<NoteOwnerRow | undefined> {
    return queryOne<NoteOwnerRow>(
      runner,
      `SELECT n.workspace_id, n.user_id, ${workspaceTeamIdSql('n.workspace_id')} AS team_id
         FROM note n WHERE n.id = $1`,
      [noteId],
    );
  }

  /**
   * Whether the record the Hydra layer's `query` selects (alias `t`) exists, holding a
   * key-share lock on it until the transaction ends.
   */
  async recordLocked(runner: SqlRunner, recordQuery: SqlQuery): Promise<boolean> {
    const rows = await query(
      runner,
      `SELECT 1 ${recordQuery.fromClause()}${recordQuery.whereClause()} LIMIT 1 FOR KEY SHARE OF t`,
      recordQuery.params,
    );
    return rows.length > 0;
  }

  /** The workspace of a record of a notable resource (its declared table and id column). */
  async workspaceOfRecord(
    runner: SqlRunner,
    resource: Pick<ResourceMeta, 'table' | 'idColumn'>,
    id: string,
  ): Promise<string | undefined> {
    const row = await queryOne<{ workspace_id: string }>(
      runner,
      `SELECT workspace_id FROM ${quoteIdent(resource.table)} WHERE ${quoteIdent(resource.idColumn)} = $1`,
      [id],
    );
    return row?.workspace_id;
  }

  /**
   * Locks, as a cascading delete of their parents would, the rows of `child` whose parent is
   * one of `parentIds`; answers their ids. A note being written on one of them (NotesService
   * holds a key-share lock on its record) commits first.
   */
  async lockChildren(
    runner: SqlRunner,
    child: ChildRows,
    parentIds: readonly string[],
  ): Promise<string[]> {
    const rows = await query<{ id: string }>(
      runner,
      `SELECT id FROM ${quoteIdent(child.table)} WHERE ${quoteIdent(child.column)} = ANY($1::uuid[])
        ORDER BY id FOR UPDATE`,
      [parentIds],
    );
    return rows.map((r) => r.id);
  }

  /** The main file of a note. */
  async setAttachment(runner: SqlRunner, noteId: string, mediaId: string): Promise<void> {
    await execute(runner, `UPDATE note SET attachment_id = $2 WHERE id = $1`, [noteId, mediaId]);
  }

  /** Clears the note's main file when it is that media. */
  async clearAttachment(runner: SqlRunner, noteId: string, mediaId: string): Promise<void> {
    await execute(
      runner,
      `UPDATE note SET attachment_id = NULL WHERE id = $1 AND attachment_id = $2`,
      [noteId, mediaId],
    );
  }

  /** Attaches the media to the note; the attachment's id, undefined when it was attached. */
  async addAttachment(
    runner: SqlRunner,
    workspaceId: string,
    noteId: string,
    mediaId: string,
  ): Promise<string | undefined> {
    const row = await queryOne<{ id: string }>(
      runner,
      `INSERT INTO note_attachment (workspace_id, note_id, media_id) VALUES ($1, $2, $3)
       ON CONFLICT (note_id, media_id) DO NOTHING RETURNING id`,
      [workspaceId, noteId, mediaId],
    );
    return row?.id;
  }

  async attachmentNote(runner: SqlRunner, attachmentId: string): Promise<string | undefined> {
    const row = await queryOne<{ note_id: string }>(
      runner,
      `SELECT note_id FROM note_attachment WHERE id = $1`,
      [attachmentId],
    );
    return row?.note_id;
  }

  /** Deletes an attachment row; its note and media. */
  async deleteAttachment(
    runner: SqlRunner,
    attachmentId: string,
  ): Promise<{ note_id: string; media_id: string } | undefined> {
    return queryOne<{ note_id: string; media_id: string }>(
      runner,
      `DELETE FROM note_attachment WHERE id = $1 RETURNING note_id, media_id`,
      [attachmentId],
    );
  }

  /** The media the selected notes use (attachments and main files). */
  async mediaOfSelected(runner: SqlRunner, selection: NoteSelection): Promise<string[]> {
    const { where, params } = whereOf(selection);
    const rows = await query<{ media_id: string }>(
      runner,
      `SELECT na.media_id FROM note n JOIN note_attachment na ON na.note_id = n.id WHERE ${where}
       UNION
       SELECT n.attachment_id FROM note n WHERE ${where} AND n.attachment_id IS NOT NULL`,
      params,
    );
    return rows.map((r) => r.media_id);
  }

  /** Deletes the selected notes (their reminders and attachment rows cascade); how many. */
  async deleteSelected(runner: SqlRunner, selection: NoteSelection): Promise<number> {
    const { where, params } = whereOf(selection);
    const rows = await query(runner, `DELETE FROM note n WHERE ${where} RETURNING 1`, params);
    return rows.length;
  }

  /** Moves the notes on those records to the workspace; the ids of the notes moved. */
  async moveNotesOf(
    runner: SqlRunner,
    entity: string,
    entityIds: readonly string[],
    workspaceId: string,
  ): Promise<string[]> {
    const rows = await query<{ id: string }>(
      runner,
      `UPDATE note SET workspace_id = $1
        WHERE entity = $2 AND entity_id = ANY($3::uuid[]) AND workspace_id <> $1 RETURNING id`,
      [workspaceId, entity, entityIds],
    );
    return rows.map((r) => r.id);
  }

  /** Moves the reminders and attachment rows of the notes to the workspace. */
  async moveParts(runner: SqlRunner, noteIds: readonly string[], workspaceId: string) {
    for (const table of ['note_reminder', 'note_attachment'])
      await execute(
        runner,
        `UPDATE ${table} SET workspace_id = $1 WHERE note_id = ANY($2::uuid[])`,
        [workspaceId, noteIds],
      );
  }

  /** The media the notes use (attachments and main files). */
  async mediaOfNotes(runner: SqlRunner, noteIds: readonly string[]): Promise<string[]> {
    const rows = await query<{ media_id: string }>(
      runner,
      `SELECT na.media_id FROM note_attachment na WHERE na.note_id = ANY($1::uuid[])
       UNION
       SELECT n.attachment_id FROM note n WHERE n.id = ANY($1::uuid[]) AND n.attachment_id IS NOT NULL`,
      [noteIds],
    );
    return rows.map((r) => r.media_id);
  }

  /** Points the notes' uses of media `from` (main file and attachments) at media `to`. */
  async replaceMedia(runner: SqlRunner, noteIds: readonly string[], from: string, to: string) {
    await execute(
      runner,
      `UPDATE note SET attachment_id = $3 WHERE id = ANY($1::uuid[]) AND attachment_id = $2`,
      [noteIds, from, to],
    );
    await execute(
      runner,
      `UPDATE note_attachment SET media_id = $3 WHERE note_id = ANY($1::uuid[]) AND media_id = $2`,
      [noteIds, from, to],
    );
  }
}
