import { Injectable } from '@nestjs/common';
import { execute, query, queryOne, type SqlRunner } from '../database/query';
import { joinUserSql, userHasEmailSql } from '../users/user-store';
import type { TeamRole } from './team-member.entity';

/** A membership as the role rules read it (`member_id` null: a pending invitation). */
export interface MemberRow {
  id: string;
  team_id: string;
  member_id: string | null;
  role: TeamRole;
}

/** Workspace access of a team member, or given with an invitation and applied on acceptance. */
export interface WorkspacePermission {
  workspaceId: string;
  /** An access level, or null to revoke. */
  accessLevel: string | null;
}

/** A pending invitation being accepted. */
export interface PendingInvitation {
  id: string;
  team_id: string;
  role: TeamRole;
  invited_permissions: WorkspacePermission[] | null;
}

export interface NewInvitation {
  teamId: string;
  email: string;
  role: TeamRole;
  codeHash: string;
  invitedAt: Date;
  permissions: WorkspacePermission[];
}

/** A team as the teams a user administers list it. */
export interface TeamSummary {
  id: string;
  name: string;
}

/** The roles that administer a team (owners are admins too). */
export const ADMIN_ROLES: readonly TeamRole[] = ['owner', 'admin'];

/**
 * The SQL of team memberships and invitations (team_member, with the team's name where a
 * statement needs it). Statements go as prepared statements on the caller's transaction.
 */
@Injectable()
export class TeamMemberStore {
  /** The membership, locked until the transaction ends. */
  async lock(db: SqlRunner, id: string): Promise<MemberRow | undefined> {
    return queryOne<MemberRow>(
      db,
      `SELECT id, team_id, member_id, role FROM team_member WHERE id = $1 FOR UPDATE`,
      [id],
    );
  }

  async add(db: SqlRunner, teamId: string, userId: string, role: TeamRole): Promise<void> {
    await execute(db, `INSERT INTO team_member (team_id, member_id, role) VALUES ($1, $2, $3)`, [
      teamId,
      userId,
      role,
    ]);
  }

  async setRole(db: SqlRunner, id: string, role: TeamRole): Promise<void> {
    await execute(db, `UPDATE team_member SET role = $2 WHERE id = $1`, [id, role]);
  }

  /** Owners of the team who are members (not pending invitations). */
  async ownerCount(db: SqlRunner, teamId: string): Promise<number> {
    const row = await queryOne<{ owners: number }>(
      db,
      `SELECT count(*)::int AS owners FROM team_member WHERE team_id = $1 AND role = 'owner' AND member_id IS NOT NULL`,
      [teamId],
    );
    return row?.owners ?? 0;
  }

  async delete(db: SqlRunner, id: string): Promise<void> {
    await execute(db, `DELETE FROM team_member WHERE id = $1`, [id]);
  }

  /** The membership of `userId` in the team, if any. */
  async membershipOf(db: SqlRunner, teamId: string, userId: string): Promise<string | undefined> {
    const row = await queryOne<{ id: string }>(
      db,
      `SELECT id FROM team_member WHERE team_id = $1 AND member_id = $2`,
      [teamId, userId],
    );
    return row?.id;
  }

  /** The member of the team whose account has this address, if any. */
  async memberByEmail(db: SqlRunner, teamId: string, email: string): Promise<string | undefined> {
    const row = await queryOne<{ member_id: string }>(
      db,
      `SELECT m.member_id FROM team_member m ${joinUserSql('u', 'm.member_id')}
        WHERE m.team_id = $1 AND ${userHasEmailSql('u', '$2')}`,
      [teamId, email],
    );
    return row?.member_id;
  }

  /**
   * The teams `userId` owns or administers: in the order they joined them (`joined`), or
   * oldest team first (`created`).
   */
  async administeredBy(
    db: SqlRunner,
    userId: string,
    order: 'joined' | 'created',
  ): Promise<TeamSummary[]> {
    return query<TeamSummary>(
      db,
      `SELECT t.id, t.name FROM team t JOIN team_member m ON m.team_id = t.id
        WHERE m.member_id = $1 AND m.role IN ('owner', 'admin')
        ORDER BY ${order === 'joined' ? 'm.created_at, m.id' : 't.created_at, t.id'}`,
      [userId],
    );
  }

  /** Creates or renews the pending invitation of the address; answers its id. */
  async upsertInvitation(db: SqlRunner, invitation: NewInvitation): Promise<string> {
    const [row] = await query<{ id: string }>(
      db,
      `INSERT INTO team_member (team_id, invited_email, role, invite_token_hash, invited_at, invited_permissions)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb)
       ON CONFLICT (team_id, invited_email) WHERE member_id IS NULL
       DO UPDATE SET role = EXCLUDED.role, invite_token_hash = EXCLUDED.invite_token_hash,
                     invited_at = EXCLUDED.invited_at, invited_permissions = EXCLUDED.invited_permissions
       RETURNING id`,
      [
        invitation.teamId,
        invitation.email,
        invitation.role,
        invitation.codeHash,
        invitation.invitedAt,
        JSON.stringify(invitation.permissions),
      ],
    );
    return row.id;
  }

  /** The invited address, the member once accepted, and the team's name. */
  async invitation(
    db: SqlRunner,
    id: string,
  ): Promise<{ email: string; member_id: string | null; name: string } | undefined> {
    return queryOne(
      db,
      `SELECT m.invited_email::text AS email, m.member_id, t.name FROM team_member m JOIN team t ON t.id = m.team_id
        WHERE m.id = $1`,
      [id],
    );
  }

  async renewInvitationCode(
    db: SqlRunner,
    id: string,
    codeHash: string,
    invitedAt: Date,
  ): Promise<void> {
    await execute(
      db,
      `UPDATE team_member SET invite_token_hash = $2, invited_at = $3 WHERE id = $1`,
      [id, codeHash, invitedAt],
    );
  }

  /** The pending invitation of `email` with this code, made after `since`. */
  async findInvitation(
    db: SqlRunner,
    codeHash: string,
    email: string,
    since: Date,
  ): Promise<{ id: string; team_id: string; name: string } | undefined> {
    return queryOne(
      db,
      `SELECT m.id, m.team_id, t.name FROM team_member m JOIN team t ON t.id = m.team_id
        WHERE m.invite_token_hash = $1 AND m.member_id IS NULL AND m.invited_email = $2 AND m.invited_at > $3`,
      [codeHash, email, since],
    );
  }

  /** Every pending invitation of the address, locked. */
  async pendingFor(db: SqlRunner, email: string): Promise<PendingInvitation[]> {
    return query<PendingInvitation>(
      db,
      `SELECT id, team_id, role, invited_permissions FROM team_member
        WHERE member_id IS NULL AND invited_email = $1 FOR UPDATE`,
      [email],
    );
  }

  /** The invitation if it is still pending, locked. */
  async pending(db: SqlRunner, id: string): Promise<PendingInvitation | undefined> {
    return queryOne<PendingInvitation>(
      db,
      `SELECT id, team_id, role, invited_permissions FROM team_member
        WHERE id = $1 AND member_id IS NULL FOR UPDATE`,
      [id],
    );
  }

  /** The pending invitation of the address into the team, locked. */
  async pendingInTeam(
    db: SqlRunner,
    teamId: string,
    email: string,
  ): Promise<{ id: string; invited_permissions: WorkspacePermission[] } | undefined> {
    return queryOne(
      db,
      `SELECT id, invited_permissions FROM team_member
        WHERE team_id = $1 AND member_id IS NULL AND invited_email = $2 FOR UPDATE`,
      [teamId, email],
    );
  }

  /** The invitation becomes the membership of `userId`. */
  async accept(db: SqlRunner, id: string, userId: string): Promise<void> {
    await execute(
      db,
      `UPDATE team_member SET member_id = $2, invite_token_hash = NULL, invited_permissions = '[]'::jsonb
        WHERE id = $1`,
      [id, userId],
    );
  }

  async setInvitedPermissions(
    db: SqlRunner,
    id: string,
    permissions: WorkspacePermission[],
  ): Promise<void> {
    await execute(db, `UPDATE team_member SET invited_permissions = $2::jsonb WHERE id = $1`, [
      id,
      JSON.stringify(permissions),
    ]);
  }
}

/*
 * SQL fragments for other modules' statements over memberships (the principal's teams, who
 * sees a workspace): team_member and its columns stay named here. Arguments are SQL
 * expressions or aliases; roles come from TEAM_ROLES, never from input.
 */

function roleCondition(alias: string, roles?: readonly TeamRole[]): string {
  if (!roles) return '';
  if (roles.length === 1) return ` AND ${alias}.role = '${roles[0]}'`;
  return ` AND ${alias}.role IN (${roles.map((r) => `'${r}'`).join(',')})`;
}

/** The ids of the teams `user` belongs to with one of `roles` (any role without), sorted. */
export function teamIdsOfMemberSql(user: string, roles?: readonly TeamRole[]): string {
  return `COALESCE((SELECT array_agg(m.team_id ORDER BY m.team_id) FROM team_member m WHERE m.member_id = ${user}${roleCondition('m', roles)}), '{}')`;
}

/** Joins, as `alias`, the membership of `user` in `team` when it has one of `roles`. */
export function joinTeamMemberSql(
  alias: string,
  team: string,
  user: string,
  roles?: readonly TeamRole[],
): string {
  return `JOIN team_member ${alias} ON ${alias}.team_id = ${team} AND ${alias}.member_id = ${user}${roleCondition(alias, roles)}`;
}

/** True when the membership joined as `alias` is one of `roles`. */
export function memberRoleInSql(alias: string, roles: readonly TeamRole[]): string {
  return roleCondition(alias, roles).replace(/^ AND /, '');
}

/** The IRIs of the teams `user` belongs to, sorted by id (a user's `teams`). */
export function teamIrisOfUserSql(user: string): string {
  return `ARRAY(SELECT '/teams/' || m.team_id FROM team_member m WHERE m.member_id = ${user} ORDER BY m.team_id)`;
}
