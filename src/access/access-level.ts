import { ForbiddenError, NotFoundError } from '../common/errors/api-errors';
import type { Principal } from './principal';

/**
 * What a route needs from its caller, declared once per resource operation and per action:
 * - `public`: nobody needs a token;
 * - `user`: any signed-in user (their own records, or every workspace they see);
 * - `workspace:read` / `workspace:write`: a member of the workspace the request is about;
 *   read-only members may read but not write;
 * - `team:member` / `team:admin` / `team:owner`: a member of the team the request is about,
 *   with at least that role (owners are admins too).
 * Where the workspace or team is found (a route parameter, an input attribute, the records
 * the input names) is declared beside the level; see `access-target.ts`.
 */
export const ACCESS_LEVELS = [
  'public',
  'user',
  'workspace:read',
  'workspace:write',
  'team:member',
  'team:admin',
  'team:owner',
] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export type AccessScope = 'none' | 'workspace' | 'team';

export function scopeOf(level: AccessLevel): AccessScope {
  if (level.startsWith('workspace:')) return 'workspace';
  if (level.startsWith('team:')) return 'team';
  return 'none';
}

/** Whether the level lets read-only workspace members through. */
export function isWriteLevel(level: AccessLevel): boolean {
  return level === 'workspace:write' || level === 'team:admin' || level === 'team:owner';
}

/**
 * Whether a token granted to a third-party application (authorization code, `Principal.delegated`)
 * may call an operation of this level when its declaration says nothing: not what only team
 * owners and admins may do (members and their permissions, the team's settings and deletion,
 * workspace deletion, billing). Declarations refuse more with `delegated: false` (the user,
 * OAuth clients, credentials, leaving a team).
 */
export function delegatedByDefault(level: AccessLevel): boolean {
  return level !== 'team:admin' && level !== 'team:owner';
}

export const DELEGATED_REFUSAL =
  'A token granted to a third-party application (authorization code) cannot do this: managing ' +
  'the account, its members, permissions, teams, OAuth clients, credentials and billing needs ' +
  'a token of the account holder (client credentials of their own OAuth client, or a sign-in).';

/** 403 when the operation refuses delegated tokens and the caller holds one. */
export function assertDelegation(principal: Principal, delegatedAllowed: boolean): void {
  if (principal.delegated && !delegatedAllowed) throw new ForbiddenError(DELEGATED_REFUSAL);
}

/**
 * The rule itself, pure: 404 when the caller cannot see the workspace or team at all (as for a
 * missing one, so ids of other tenants reveal nothing), 403 when they see it without the
 * needed right.
 */
export function assertAccess(
  principal: Principal,
  level: AccessLevel,
  target: { workspaceId?: string; teamId?: string },
): void {
  switch (scopeOf(level)) {
    case 'none':
      return;
    case 'workspace': {
      const id = target.workspaceId;
      if (id === undefined) throw new Error(`${level} needs a workspace`);
      if (!principal.workspaceIds.includes(id)) throw new NotFoundError();
      if (level === 'workspace:write' && !canWrite(principal, id))
        throw new ForbiddenError('Read-only access to this workspace.');
      return;
    }
    case 'team': {
      const id = target.teamId;
      if (id === undefined) throw new Error(`${level} needs a team`);
      if (!principal.teamIds.includes(id)) throw new NotFoundError();
      if (level === 'team:admin' && !principal.adminTeamIds.includes(id))
        throw new ForbiddenError('Only owners and admins of the team may do this.');
      if (level === 'team:owner' && !(principal.ownerTeamIds ?? []).includes(id))
        throw new ForbiddenError('Only owners of the team may do this.');
      return;
    }
  }
}

function canWrite(principal: Principal, workspaceId: string): boolean {
  return !(principal.readOnlyWorkspaceIds ?? []).includes(workspaceId);
}
