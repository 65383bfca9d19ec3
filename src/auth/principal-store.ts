import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { Principal } from '../access/principal';
import type { PrincipalSource } from '../access/principal-source';
import { poolOf, preparedQuery } from '../database/query';
import { Clock } from '../common/clock';
import { firstPartyClientSql } from '../oauth-clients/oauth-client-store';
import { teamIdsOfMemberSql, ADMIN_ROLES } from '../teams/team-member-store';
import { joinUserSql, userEmailSql } from '../users/user-store';
import {
  readOnlyWorkspaceIdsSql,
  visibleWorkspaceIdsSql,
} from '../workspaces/workspace-member-store';

interface PrincipalRow {
  id: string;
  email: string;
  token_id?: string;
  client_id: string | null;
  delegated?: boolean;
  team_ids: string[];
  admin_team_ids: string[];
  owner_team_ids: string[];
  workspace_ids: string[];
  read_only_workspace_ids: string[];
}

/** Teams, admin teams and visible workspaces of the user whose id is `user` (SQL). */
function memberships(user: string): string {
  return `${teamIdsOfMemberSql(user)} AS team_ids,
  ${teamIdsOfMemberSql(user, ADMIN_ROLES)} AS admin_team_ids,
  ${teamIdsOfMemberSql(user, ['owner'])} AS owner_team_ids,
  ${visibleWorkspaceIdsSql(user)} AS workspace_ids,
  ${readOnlyWorkspaceIdsSql(user)} AS read_only_workspace_ids`;
}

/**
 * The statements are composed once, from the fragments the owners of the tables export
 * (users, teams, workspaces): each request runs one prepared statement.
 */
const BY_TOKEN = `SELECT t.user_id AS id, ${userEmailSql('u')} AS email, t.id AS token_id, t.client_id, (t.family_id IS NOT NULL AND NOT ${firstPartyClientSql('t.client_id')}) AS delegated, ${memberships('t.user_id')}
   FROM access_token t ${joinUserSql('u', 't.user_id')}
  WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2`;

const BY_USER = `SELECT x.id, ${userEmailSql('u')} AS email, NULL::uuid AS client_id, ${memberships('x.id')}
   FROM (SELECT $1::uuid AS id) x ${joinUserSql('u', 'x.id')}`;

function toPrincipal(r: PrincipalRow): Principal {
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
 * The access layer's PRINCIPAL_SOURCE: a bearer token (by its SHA-256) or a user, with the
 * user's memberships, in one statement on the pool (the hottest path of the service: every
 * request).
 */
@Injectable()
export class PrincipalStore implements PrincipalSource {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  private get pool(): Pool {
    return poolOf(this.dataSource);
  }

  async byTokenHash(tokenHash: string, now = this.clock.now()): Promise<Principal | null> {
    const { rows } = await preparedQuery(this.pool, BY_TOKEN, [tokenHash, now]);
    return rows.length ? toPrincipal(rows[0] as PrincipalRow) : null;
  }

  async byUser(userId: string): Promise<Principal | null> {
    const { rows } = await preparedQuery(this.pool, BY_USER, [userId]);
    return rows.length ? toPrincipal(rows[0] as PrincipalRow) : null;
  }
}
