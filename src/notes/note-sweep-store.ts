const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * SQL for statements that delete notable rows in bulk (the retention sweep of workflow runs
 * and widget logs): the notes on the rows the statement deleted go in the same statement
 * (their reminders and attachment rows by FK cascade), and the statement answers the media
 * those notes used (still visible in its snapshot), for removeUnusedMedia.
 *
 * `collection` names the deleted rows in notes (`workflow_runs`); `ctes(gone)` are CTEs
 * over `gone`, the CTE of the deleted rows (`id`, `workspace_id`); `media` is a select-list
 * expression: the ids (text[]) of the media.
 */
export function notesOfDeletedRows(collection: string): {
  ctes: (gone: string) => string[];
  media: string;
} {
  return {
    ctes: (gone) => [
      `gone_notes AS (DELETE FROM note n USING ${gone} g
        WHERE n.workspace_id = g.workspace_id AND n.entity = ${literal(collection)} AND n.entity_id = g.id
        RETURNING n.id, n.attachment_id)`,
    ],
    media: `ARRAY(SELECT na.media_id::text FROM note_attachment na JOIN gone_notes d ON d.id = na.note_id
              UNION SELECT d.attachment_id::text FROM gone_notes d WHERE d.attachment_id IS NOT NULL)`,
  };
}
