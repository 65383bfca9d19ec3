/**
 * How many workflows a workspace has, as SQL for other modules' statements (a workspace's
 * `workflowsCount`): the table and its columns stay named here.
 */

/** The workflows of workspace `workspace` (an SQL expression). */
export function workflowCountOfWorkspaceSql(workspace: string): string {
  return `(SELECT count(*)::int FROM workflow w WHERE w.workspace_id = ${workspace})`;
}
