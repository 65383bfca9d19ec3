import { Injectable } from '@nestjs/common';
import { ForbiddenError } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { removeNotesOfRecord } from '../notes/record-notes';
import type { WorkspaceMember } from '../workspaces/workspace-member.entity';
import { WorkspaceMemberStore } from '../workspaces/workspace-member-store';

/**
 * Workspace members: anyone who sees the workspace sees its members; owners and admins of
 * the team change access levels and remove members; a member may remove themself.
 */
@Injectable()
export class WorkspaceMembersService implements ResourceHooks<WorkspaceMember> {
  constructor(private readonly members: WorkspaceMemberStore) {}

  async prepare(member: WorkspaceMember, ctx: WriteContext): Promise<void> {
    const stored = await this.members.membership(ctx.em, member.id);
    if (!stored || !ctx.principal.adminTeamIds.includes(stored.team_id)) {
      throw new ForbiddenError('Only owners and admins of the team change workspace access.');
    }
  }

  async beforeRemove(member: WorkspaceMember, ctx: WriteContext): Promise<void> {
    const stored = await this.members.membership(ctx.em, member.id);
    const self = stored?.user_id === ctx.principal.userId;
    if (!self && !(stored && ctx.principal.adminTeamIds.includes(stored.team_id))) {
      throw new ForbiddenError('Only owners and admins of the team remove workspace members.');
    }
    await removeNotesOfRecord(ctx, member.id);
  }
}
