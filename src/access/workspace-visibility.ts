/**
 * SQL that is true when user `user` sees workspace `workspace` (SQL expressions), by the
 * rule the principal's `workspaceIds` follow (principal-loader.ts): an owner or admin of its
 * team, or a team member given the workspace; never a workspace scheduled for deletion. For
 * work done outside a request (a reminder falling due), where no principal is loaded.
 */
export function userSeesWorkspaceSql(user: string, workspace: string): string {
  return `EXISTS (
    SELECT 1 FROM workspace vw
      JOIN team_member vm ON vm.team_id = vw.team_id AND vm.member_id = ${user}
     WHERE vw.id = ${workspace} AND NOT vw.scheduled_for_delete
       AND (vm.role IN ('owner', 'admin') OR EXISTS (
             SELECT 1 FROM workspace_member vwm
              WHERE vwm.workspace_id = vw.id AND vwm.user_id = ${user})))`;
}
