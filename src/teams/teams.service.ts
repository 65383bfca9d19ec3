import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { SqlRunner } from '../database/query';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { TeamMemberStore } from './team-member-store';
import { Team } from './team.entity';
import { grantTeam } from './team-membership';
import { TeamStore } from './team-store';

/** Teams: the creator becomes owner (who renames and deletes: the declaration's access). */
@Injectable()
export class TeamsService implements ResourceHooks<Team> {
  constructor(
    private readonly teams: TeamStore,
    private readonly members: TeamMemberStore,
  ) {}

  async afterWrite(team: Team, ctx: WriteContext): Promise<void> {
    if (ctx.operation !== 'post') return;
    await this.members.add(ctx.em, team.id, ctx.principal.userId, 'owner');
    grantTeam(ctx.principal, team.id, true, true);
  }

  /**
   * Creates a team owned by the principal (a workspace created with a new team, the demo
   * dataset) and makes it visible for the rest of the request.
   */
  async createOwned(
    db: SqlRunner,
    principal: Principal,
    name: string,
  ): Promise<{ id: string; name: string }> {
    const id = await this.teams.create(db, name);
    await this.members.add(db, id, principal.userId, 'owner');
    grantTeam(principal, id, true, true);
    return { id, name };
  }
}
