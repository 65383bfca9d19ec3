import { Injectable } from '@nestjs/common';
import { ForbiddenError } from '../hydra/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/write/resource-hooks';
import { TeamMember } from './team-member.entity';
import { Team } from './team.entity';
import { grantTeam, isTeamAdmin } from './team-membership';

/** Teams: the creator becomes owner; only owners and admins rename, only owners delete. */
@Injectable()
export class TeamsService implements ResourceHooks<Team> {
  async prepare(team: Team, ctx: WriteContext): Promise<void> {
    if (ctx.operation === 'put' && !isTeamAdmin(ctx.principal, team.id)) throw new ForbiddenError();
  }

  async afterWrite(team: Team, ctx: WriteContext): Promise<void> {
    if (ctx.operation !== 'post') return;
    await ctx.em.save(
      ctx.em.create(TeamMember, { team, member: { id: ctx.principal.userId }, role: 'owner' }),
    );
    grantTeam(ctx.principal, team.id, true, true);
  }

  async beforeRemove(team: Team, ctx: WriteContext): Promise<void> {
    const owner = await ctx.em.findOne(TeamMember, {
      where: { team: { id: team.id }, member: { id: ctx.principal.userId }, role: 'owner' },
    });
    if (!owner) throw new ForbiddenError('Only an owner can delete the team.');
  }
}
