import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import type { Principal } from './principal';
import { preparedQuery } from '../database/query';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Teams, admin teams and visible workspaces of user `u` (scheduled deletions hidden). */
const MEMBERSHIPS = `
  COALESCE((SELECT array_agg(m.team_id ORDER BY m.team_id) FROM team_member m WHERE m.member_id = u.id), '{}') AS team_ids,
  COALESCE((SELECT array_agg(m.team_id ORDER BY m.team_id) FROM team_member m WHERE m.member_id = u.id AND m.role IN ('owner','admin')), '{}') AS admin_team_ids,
  COALESCE((SELECT array_agg(m.team_id ORDER BY m.team_id) FROM team_member m WHERE m.member_id = u.id AND m.role = 'owner'), '{}') AS owner_team_ids,
  COALESCE((SELECT array_agg(id ORDER BY id) FROM (
     SELECT w.id FROM workspace w JOIN team_member m ON m.team_id = w.team_id AND m.member_id = u.id AND m.role IN ('owner','admin')
      WHERE NOT w.scheduled_for_delete
     UNION
     SELECT w.id FROM workspace_member wm JOIN workspace w ON w.id = wm.workspace_id
       JOIN team_member m ON m.team_id = w.team_id AND m.member_id = u.id
      WHERE wm.user_id = u.id AND NOT w.scheduled_for_delete) v), '{}') AS workspace_ids,
  COALESCE((SELECT array_agg(wm.workspace_id ORDER BY wm.workspace_id) FROM workspace_member wm
     JOIN workspace w ON w.id = wm.workspace_id
     JOIN team_member m ON m.team_id = w.team_id AND m.member_id = u.id AND m.role = 'member'
    WHERE wm.user_id = u.id AND wm.access_level = 'read'), '{}') AS read_only_workspace_ids`;

function toPrincipal(r: Record<string, any>): Principal {
  return {
    userId: r.id,
    email: r.email,
    teamIds: r.team_ids,
    adminTeamIds: r.admin_team_ids,
    ownerTeamIds: r.owner_team_ids,
    workspaceIds: r.workspace_ids,
    readOnlyWorkspaceIds: r.read_only_workspace_ids,
    clientId: r.client_id ?? null,
    tokenId: r.token_id ?? null,
    delegated: r.delegated === true,
  };
}

/**
 * Resolves a bearer token to the principal with all its memberships in one
 * indexed query: the token by its SHA-256, then teams and visible workspaces.
 * Workspaces scheduled for deletion are left out, so they and everything in them
 * answer 404 while the background deletion works through them.
 */
@Injectable()
export class PrincipalLoader {
  constructor(private readonly dataSource: DataSource) {}

  private get pool(): Pool {
    return (this.dataSource.driver as unknown as { master: Pool }).master;
  }

  /** One round trip: the token (by SHA-256, live) and the user's memberships. */
  async fromToken(token: string, now = new Date()): Promise<Principal | null> {
    const { rows } = await preparedQuery(
      this.pool,
      `SELECT u.id, u.email::text AS email, t.id AS token_id, t.client_id, t.family_id IS NOT NULL AS delegated, ${MEMBERSHIPS}
         FROM access_token t JOIN "user" u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2`,
      [hashToken(token), now],
    );
    return rows.length ? toPrincipal(rows[0]) : null;
  }

  async forUser(userId: string): Promise<Principal | null> {
    const { rows } = await preparedQuery(
      this.pool,
      `SELECT u.id, u.email::text AS email, NULL::uuid AS client_id, ${MEMBERSHIPS} FROM "user" u WHERE u.id = $1`,
      [userId],
    );
    return rows.length ? toPrincipal(rows[0]) : null;
  }
}
