import type { Principal } from '../access/principal';

/** The principal gains the team for the rest of the request (a team it just made or joined). */
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
