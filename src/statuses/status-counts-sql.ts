/**
 * How many statuses workspaces define, as SQL for other modules' statements (the demo
 * dataset's size): the table and its columns stay named here.
 */

/** The statuses of the workspaces a subquery (`SELECT <id> ...`) lists. */
export function statusCountInWorkspacesSql(workspaceIds: string): string {
  return `(SELECT count(*)::int FROM status s WHERE s.workspace_id IN (${workspaceIds}))`;
}
