/**
 * The team_member table's part of e-mail notifications: a fragment the users' mail store
 * checks a recipient with, in the same statement.
 */

/** SQL that is true when the user `userSql` is a member of the team `teamSql`. */
export function isTeamMemberSql(userSql: string, teamSql: string): string {
  return `EXISTS (SELECT 1 FROM team_member m WHERE m.team_id = ${teamSql} AND m.member_id = ${userSql})`;
}
