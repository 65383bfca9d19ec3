import { ForbiddenError } from '../common/errors/api-errors';

/**
 * Who is calling. Loaded once per request by the bearer guard with the
 * caller's memberships, so tenant scoping is a comparison with these ids.
 */
export interface Principal {
  userId: string;
  email: string;
  /** Teams the user belongs to, in any role. */
  teamIds: string[];
  /** Teams where the user is owner or admin (sees every workspace of them). */
  adminTeamIds: string[];
  /** Teams the user owns. */
  ownerTeamIds?: string[];
  /** Workspaces visible to the user: explicit memberships plus all of admin teams. */
  workspaceIds: string[];
  /**
   * Visible workspaces the user may only read: a `read` workspace membership
   * and no owner/admin role in the team. Writes there answer 403.
   */
  readOnlyWorkspaceIds?: string[];
  /** OAuth client the token was issued to, when any. */
  clientId?: string | null;
  /**
   * The token was granted to a third-party application through the authorization-code flow
   * (the user consented on our page): it acts for the user on their data, but may not manage
   * the account itself (password, OAuth clients, credentials). See assertAccountManager.
   */
  delegated?: boolean;
}

/** True when the principal may change records of the workspace (not a read-only member). */
export function canWriteWorkspace(principal: Principal, workspaceId: string): boolean {
  return !(principal.readOnlyWorkspaceIds ?? []).includes(workspaceId);
}

/**
 * Refuses (403) what only the account holder's own tokens may do (client credentials of their
 * own OAuth client, or a first-party session): managing the user, OAuth clients, credentials.
 */
export function assertAccountManager(principal: Principal, what: string): void {
  if (principal.delegated) {
    throw new ForbiddenError(`A token granted to a third-party application cannot manage ${what}.`);
  }
}
