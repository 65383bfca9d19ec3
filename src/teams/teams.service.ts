import { Injectable } from '@nestjs/common';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { TeamMember } from './team-member.entity';
import { Team } from './team.entity';
import { grantTeam } from './team-membership';

/** Teams: the creator becomes owner (who renames and deletes: the declaration's access). */
@Injectable()
export class TeamsService implements ResourceHooks<Team> {
  async afterWrite(team: Team, ctx: WriteContext): Promise<void> {
    if (ctx.operation !== 'post') return;
    await ctx.em.save(
      ctx.em.create(TeamMember, { team, member: { id: ctx.principal.userId }, role: 'owner' }),
    );
    grantTeam(ctx.principal, team.id, true, true);
  }
}
