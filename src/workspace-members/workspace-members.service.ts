import { Injectable } from '@nestjs/common';
import { ForbiddenError } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { removeNotesOfRecord } from '../notes/record-notes';
import type { WorkspaceMember } from '../workspaces/workspace-member.entity';

/**
 * Workspace members: anyone who sees the workspace sees its members; owners and admins of
 * the team change access levels and remove members; a member may remove themself.
 */
@Injectable()
export class WorkspaceMembersService implements ResourceHooks<WorkspaceMember> {
  async prepare(member: WorkspaceMember, ctx: WriteContext): Promise<void> {
    if (!(await this.isTeamAdmin(member, ctx))) {
      throw new ForbiddenError('Only owners and admins of the team change workspace access.');
    }
  }

  async beforeRemove(member: WorkspaceMember, ctx: WriteContext): Promise<void> {
    const [row] = await ctx.em.query(`SELECT user_id FROM workspace_member WHERE id = $1`, [
      member.id,
    ]);
    if (row.user_id !== ctx.principal.userId && !(await this.isTeamAdmin(member, ctx))) {
      throw new ForbiddenError('Only owners and admins of the team remove workspace members.');
    }
    await removeNotesOfRecord(ctx, member.id);
  }

  private async isTeamAdmin(member: WorkspaceMember, ctx: WriteContext): Promise<boolean> {
    const [row] = await ctx.em.query(
      `SELECT w.team_id FROM workspace_member wm JOIN workspace w ON w.id = wm.workspace_id WHERE wm.id = $1`,
      [member.id],
    );
    return !!row && ctx.principal.adminTeamIds.includes(row.team_id);
  }
}
