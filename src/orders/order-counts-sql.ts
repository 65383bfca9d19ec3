/**
 * How many orders workspaces hold, as SQL for other modules' statements (the size that decides
 * how a workspace is deleted, the demo dataset's size): the table and its columns stay named
 * here. Arguments are SQL expressions.
 */

/** The orders of workspace `workspace`, counted up to `limit` (enough to decide a size). */
export function orderCountUpToSql(workspace: string, limit: string): string {
  return `(SELECT count(*)::int FROM (SELECT 1 FROM "order" o WHERE o.workspace_id = ${workspace} LIMIT ${limit}) x)`;
}

/** The orders of the workspaces a subquery (`SELECT <id> ...`) lists. */
export function orderCountInWorkspacesSql(workspaceIds: string): string {
  return `(SELECT count(*)::int FROM "order" o WHERE o.workspace_id IN (${workspaceIds}))`;
}
