import type { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { TeamMember, TeamRole } from './team-member.entity';
import { Team } from './team.entity';

/** Creates a team owned by the principal and makes it visible for the rest of the request. */
export async function createOwnedTeam(
  em: EntityManager,
  principal: Principal,
  name: string,
): Promise<Team> {
  const team = await em.save(em.create(Team, { name }));
  await em.save(
    em.create(TeamMember, { team, member: { id: principal.userId }, role: 'owner' as TeamRole }),
  );
  grantTeam(principal, team.id, true, true);
  return team;
}

export function grantTeam(
  principal: Principal,
  teamId: string,
  admin: boolean,
  owner = false,
): void {
  if (!principal.teamIds.includes(teamId)) principal.teamIds.push(teamId);
  if (admin && !principal.adminTeamIds.includes(teamId)) principal.adminTeamIds.push(teamId);
  const owned = (principal.ownerTeamIds ??= []);
  if (owner && !owned.includes(teamId)) owned.push(teamId);
}

export function isTeamAdmin(principal: Principal, teamId: string): boolean {
  return principal.adminTeamIds.includes(teamId);
}
