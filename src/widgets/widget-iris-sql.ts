/**
 * A workspace's widgets as SQL for other modules' statements (a workspace's `widgets`): the
 * table and its columns stay named here.
 */

/** IRIs of the widgets of workspace `workspace`, oldest first (ix_widget_workspace_created). */
export function widgetIrisOfWorkspaceSql(workspace: string): string {
  return `ARRAY(SELECT '/widgets/' || w.id FROM widget w WHERE w.workspace_id = ${workspace} ORDER BY w.created_at, w.id)`;
}
