/**
 * How many shipments workspaces hold, as SQL for other modules' statements (a workspace's
 * `shipmentsCount`, the size that decides how a workspace is deleted, the demo dataset's size):
 * the table and its columns stay named here. Arguments are SQL expressions.
 */

/** The shipments of workspace `workspace`, counted through the (workspace_id, ...) indexes. */
export function shipmentCountOfWorkspaceSql(workspace: string): string {
  return `(SELECT count(*)::int FROM shipment s WHERE s.workspace_id = ${workspace})`;
}

/** The shipments of workspace `workspace`, counted up to `limit` (enough to decide a size). */
export function shipmentCountUpToSql(workspace: string, limit: string): string {
  return `(SELECT count(*)::int FROM (SELECT 1 FROM shipment s WHERE s.workspace_id = ${workspace} LIMIT ${limit}) x)`;
}

/** The shipments of the workspaces a subquery (`SELECT <id> ...`) lists. */
export function shipmentCountInWorkspacesSql(workspaceIds: string): string {
  return `(SELECT count(*)::int FROM shipment s WHERE s.workspace_id IN (${workspaceIds}))`;
}
