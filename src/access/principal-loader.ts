import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import type { Principal } from './principal';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
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

  async fromToken(token: string, now = new Date()): Promise<Principal | null> {
    const { rows } = await this.pool.query(
      `SELECT u.id, u.email::text AS email, t.client_id FROM access_token t JOIN "user" u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2`,
      [hashToken(token), now],
    );
    if (rows.length === 0) return null;
    const principal = await this.forUser(rows[0].id);
    if (principal) principal.clientId = rows[0].client_id;
    return principal;
  }

  async forUser(userId: string): Promise<Principal | null> {
    const { rows } = await this.pool.query(
      `SELECT u.id, u.email::text AS email,
              COALESCE((SELECT array_agg(m.team_id ORDER BY m.team_id) FROM team_member m WHERE m.member_id = u.id), '{}') AS team_ids,
              COALESCE((SELECT array_agg(m.team_id ORDER BY m.team_id) FROM team_member m WHERE m.member_id = u.id AND m.role IN ('owner','admin')), '{}') AS admin_team_ids,
              COALESCE((SELECT array_agg(id ORDER BY id) FROM (
                 SELECT w.id FROM workspace w JOIN team_member m ON m.team_id = w.team_id AND m.member_id = u.id AND m.role IN ('owner','admin')
                  WHERE NOT w.scheduled_for_delete
                 UNION
                 SELECT w.id FROM workspace_member wm JOIN workspace w ON w.id = wm.workspace_id
                   JOIN team_member m ON m.team_id = w.team_id AND m.member_id = u.id
                  WHERE wm.user_id = u.id AND NOT w.scheduled_for_delete) v), '{}') AS workspace_ids
         FROM "user" u WHERE u.id = $1`,
      [userId],
    );
    if (rows.length === 0) return null;
    const r = rows[0];
    return {
      userId: r.id,
      email: r.email,
      teamIds: r.team_ids,
      adminTeamIds: r.admin_team_ids,
      workspaceIds: r.workspace_ids,
      clientId: null,
    };
  }
}
