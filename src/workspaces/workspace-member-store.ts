import { Injectable } from '@nestjs/common';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import { ADMIN_ROLES, joinTeamMemberSql, memberRoleInSql } from '../teams/team-member-store';

/** A deleted workspace membership, for the notes on it (removeNotesOfDeleted). */
export interface GoneMembership {
  id: string;
  workspace_id: string;
}

/**
 * The workspace_member table's SQL: who was given which workspace. Only workspaces of the team
 * a statement names are touched. Statements go as prepared statements on the caller's
 * transaction (query).
 */
@Injectable()
export class WorkspaceMemberStore {
  /** Gives `userId` the workspace (a workspace of `teamId`) at `accessLevel`, or changes it. */
  async grant(
    db: SqlRunner,
    teamId: string,
    workspaceId: string,
    userId: string,
    accessLevel: string,
  ): Promise<void> {
    await execute(
      db,
      `INSERT INTO workspace_member (workspace_id, user_id, access_level)
       SELECT w.id, $3, $4 FROM workspace w WHERE w.id = $2 AND w.team_id = $1
       ON CONFLICT (workspace_id, user_id) DO UPDATE SET access_level = EXCLUDED.access_level`,
      [teamId, workspaceId, userId, accessLevel],
    );
  }

  /** Gives `userId` full access to the workspace. */
  async add(db: SqlRunner, workspaceId: string, userId: string): Promise<void> {
    await execute(db, `INSERT INTO workspace_member (workspace_id, user_id) VALUES ($1, $2)`, [
      workspaceId,
      userId,
    ]);
  }

  /** Takes the workspace (a workspace of `teamId`) from `userId`. */
  async revoke(
    db: SqlRunner,
    teamId: string,
    workspaceId: string,
    userId: string,
  ): Promise<GoneMembership[]> {
    return query<GoneMembership>(
      db,
      `DELETE FROM workspace_member wm USING workspace w
        WHERE wm.workspace_id = w.id AND w.team_id = $1 AND wm.workspace_id = $2 AND wm.user_id = $3
        RETURNING wm.id, wm.workspace_id`,
      [teamId, workspaceId, userId],
    );
  }

  /** Takes every workspace of `teamId` from `userId` (they leave the team). */
  async revokeAllInTeam(db: SqlRunner, teamId: string, userId: string): Promise<GoneMembership[]> {
    return query<GoneMembership>(
      db,
      `DELETE FROM workspace_member wm USING workspace w
        WHERE wm.workspace_id = w.id AND w.team_id = $1 AND wm.user_id = $2
        RETURNING wm.id, wm.workspace_id`,
      [teamId, userId],
    );
  }

  /** The users given the workspace (members of its team who are not owners or admins). */
  async userIds(db: SqlRunner, workspaceId: string): Promise<string[]> {
    const rows = await query<{ user_id: string }>(
      db,
      'SELECT user_id FROM workspace_member WHERE workspace_id = $1',
      [workspaceId],
    );
    return rows.map((r) => r.user_id);
  }

  /** The member's user and the team of the workspace. */
  async membership(
    db: SqlRunner,
    id: string,
  ): Promise<{ user_id: string; team_id: string } | undefined> {
    return queryOne(
      db,
      `SELECT wm.user_id, w.team_id FROM workspace_member wm JOIN workspace w ON w.id = wm.workspace_id
        WHERE wm.id = $1`,
      [id],
    );
  }
}

/*
 * Who sees which workspace, as SQL for the statements that load a principal and for work done
 * outside a request: owners and admins of a workspace's team see it, other members of the team
 * see the workspaces they were given; nobody sees a workspace scheduled for deletion (it and
 * everything in it answer 404 while the background deletion works through it). workspace and
 * workspace_member stay named here, team_member in the teams module.
 */

/** The ids of the workspaces user `user` sees, sorted (`Principal.workspaceIds`). */
export function visibleWorkspaceIdsSql(user: string): string {
  return `COALESCE((SELECT array_agg(id ORDER BY id) FROM (
     SELECT w.id FROM workspace w ${joinTeamMemberSql('m', 'w.team_id', user, ADMIN_ROLES)}
      WHERE NOT w.scheduled_for_delete
     UNION
     SELECT w.id FROM workspace_member wm JOIN workspace w ON w.id = wm.workspace_id
       ${joinTeamMemberSql('m', 'w.team_id', user)}
      WHERE wm.user_id = ${user} AND NOT w.scheduled_for_delete) v), '{}')`;
}

/**
 * The workspaces user `user` was given read-only and does not administer, sorted
 * (`Principal.readOnlyWorkspaceIds`): writes there answer 403.
 */
export function readOnlyWorkspaceIdsSql(user: string): string {
  return `COALESCE((SELECT array_agg(wm.workspace_id ORDER BY wm.workspace_id) FROM workspace_member wm
     JOIN workspace w ON w.id = wm.workspace_id
     ${joinTeamMemberSql('m', 'w.team_id', user, ['member'])}
    WHERE wm.user_id = ${user} AND wm.access_level = 'read'), '{}')`;
}

/**
 * True when user `user` sees workspace `workspace`, by the rule of visibleWorkspaceIdsSql: for
 * work done outside a request (a reminder falling due), where no principal is loaded.
 */
export function userSeesWorkspaceSql(user: string, workspace: string): string {
  return `EXISTS (
    SELECT 1 FROM workspace vw
      ${joinTeamMemberSql('vm', 'vw.team_id', user)}
     WHERE vw.id = ${workspace} AND NOT vw.scheduled_for_delete
       AND (${memberRoleInSql('vm', ADMIN_ROLES)} OR EXISTS (
             SELECT 1 FROM workspace_member vwm
              WHERE vwm.workspace_id = vw.id AND vwm.user_id = ${user})))`;
}

/**
 * True when user `user` administers (owns or is an admin of) the team of workspace
 * `workspace` (a workspace member's `teamAdmin`).
 */
export function administersWorkspaceSql(user: string, workspace: string): string {
  return `EXISTS (SELECT 1 FROM workspace w ${joinTeamMemberSql('m', 'w.team_id', user, ADMIN_ROLES)} WHERE w.id = ${workspace})`;
}
