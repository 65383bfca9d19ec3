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
      '`changes: [{email, permissions: [{workspaceId, accessLevel}]}]`: `accessLevel` full or read grants, null or "none" revokes; with `inviteMode`, an address not in the workspace\u2019s team is invited with that access. All or nothing; answers 201 `{inviteMode, changes: [{email, permissions, result}]}` (result updated, invited or added). Only owners and admins of each workspace\u2019s team: a workspace the caller does not administer is the reference\u2019s 422 at `changes[i].permissions[j].workspaceId`, like one that does not exist. 400 for wrong JSON types, 422 for a bad e-mail, access level, or a person not in the team without inviteMode.',
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
