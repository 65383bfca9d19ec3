import type { Principal } from '../../access/principal';

/**
 * Who a store workflow's imports and pushes act as: a member of its team (an owner or admin,
 * who may write the workspace) seeing only the workflow's workspace, so the write pipeline
 * applies the workspace's tenancy and rules as for any API client, and nothing else is in
 * reach. Not an account of its own: nothing of the pipeline records who wrote.
 */
export function workflowPrincipal(actor: {
  userId: string;
  teamId: string;
  workspaceId: string;
}): Principal {
  return {
    userId: actor.userId,
    email: '',
    teamIds: [actor.teamId],
    adminTeamIds: [],
    workspaceIds: [actor.workspaceId],
    readOnlyWorkspaceIds: [],
    delegated: false,
  };
}
