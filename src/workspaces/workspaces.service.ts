import { Injectable } from '@nestjs/common';
import { ForbiddenError, ValidationError, ViolationCodes } from '../hydra/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/write/resource-hooks';
import { TeamMember } from '../teams/team-member.entity';
import { createOwnedTeam, isTeamAdmin } from '../teams/team-membership';
import { Team } from '../teams/team.entity';
import { Workspace } from './workspace.entity';

/**
 * Workspace rules. `team` on POST is an IRI of a team the caller administers,
 * or an object `{name}`: a name the caller's teams do not have creates that
 * team (owned by the caller); no name uses the caller's own team, creating
 * one when the caller has none.
 */
@Injectable()
export class WorkspacesService implements ResourceHooks<Workspace> {
  async prepare(workspace: Workspace, ctx: WriteContext): Promise<void> {
    if (ctx.operation === 'post') {
      const teamInput = ctx.nested.team;
      if (teamInput !== undefined) workspace.team = await this.teamFromObject(teamInput, ctx);
      if (workspace.team && !isTeamAdmin(ctx.principal, workspace.team.id))
        throw new ForbiddenError();
    }
  }

  afterWrite(workspace: Workspace, ctx: WriteContext): void {
    if (ctx.operation === 'post' && !ctx.principal.workspaceIds.includes(workspace.id)) {
      ctx.principal.workspaceIds.push(workspace.id);
    }
  }

  async beforeRemove(workspace: Workspace, ctx: WriteContext): Promise<void> {
    const row = await ctx.em.query('SELECT team_id FROM workspace WHERE id = $1', [workspace.id]);
    if (!isTeamAdmin(ctx.principal, row[0].team_id)) throw new ForbiddenError();
  }

  private async teamFromObject(
    input: Record<string, unknown> | null,
    ctx: WriteContext,
  ): Promise<Team> {
    const name = input?.name;
    if (name !== undefined && name !== null && typeof name !== 'string') {
      throw ValidationError.of(
        'team.name',
        'This value should be of type string.',
        ViolationCodes.invalid,
      );
    }
    const { em, principal } = ctx;
    const mine = await em
      .createQueryBuilder(TeamMember, 'm')
      .innerJoinAndSelect('m.team', 'team')
      .where('m.member_id = :user', { user: principal.userId })
      .andWhere("m.role IN ('owner', 'admin')")
      .orderBy('m.created_at', 'ASC')
      .getMany();
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (!trimmed) {
      if (mine.length > 0) return mine[0].team;
      return createOwnedTeam(em, principal, principal.email.split('@')[0] || 'My team');
    }
    const existing = mine.find((m) => m.team.name === trimmed);
    if (existing) return existing.team;
    if (trimmed.length > 255) {
      throw ValidationError.of(
        'team.name',
        'This value is too long. It should have 255 characters or less.',
        ViolationCodes.tooLong,
      );
    }
    return createOwnedTeam(em, principal, trimmed);
  }
}
