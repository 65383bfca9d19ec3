import { Controller } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { Action } from '../hydra/actions/action.decorator';
import { WorkspacePermissionsBatch } from './workspace-permissions-batch';
import { WorkspacePermissionsBatchInput } from './workspace-permissions-batch.input';
import { WorkspacePermissionsBatchResult } from './workspace-permissions-batch.output';

/** `POST /workspace_permissions_batch`: workspace access of several people at once. */
@Controller()
export class WorkspacePermissionsBatchController {
  constructor(private readonly batch: WorkspacePermissionsBatch) {}

  @Action({
    method: 'POST',
    path: '/workspace_permissions_batch',
    summary: 'Grants or revokes workspace access of several team members at once.',
    description:
      'Applies `changes: [{email, permissions: [{workspaceId, accessLevel}]}]` (full or read grants, null or `none` revokes), inviting addresses not in the team with `inviteMode`. All or nothing; answers each change with its result.',
    input: WorkspacePermissionsBatchInput,
    output: { json: WorkspacePermissionsBatchResult },
    status: 201,
    // The teams are those of the workspaces named deep in `changes`; each is checked there
    // (checkPermissionTargets), with the reference's 422 rather than a 403.
    access: 'team:admin',
  })
  apply(input: WorkspacePermissionsBatchInput, principal: Principal) {
    return this.batch.apply(principal, input);
  }
}
