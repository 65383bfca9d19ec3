import { delegatedByDefault, type AccessLevel } from '../../access/access-level';
import type { ApiResourceOptions, Operation } from '../core/declaration';

/**
 * The access each operation of a resource needs: what the declaration says
 * (`access: { put: 'team:admin' }`, or `read`/`write` for all of them), else the default of
 * its tenancy: workspace-owned records are read by members and written by members with write
 * access; team-owned records by members of the team; a user's own records by the user;
 * public catalogues by anyone (with a token when `requireToken`).
 */
export function resourceAccess(options: ApiResourceOptions, operation: Operation): AccessLevel {
  const write = isWrite(operation);
  const declared = options.access?.[operation] ?? options.access?.[write ? 'write' : 'read'];
  if (declared) return declared;
  const rule = options.tenancy;
  if (rule === 'public') return options.requireToken ? 'user' : 'public';
  if ('workspace' in rule || ('self' in rule && rule.self === 'workspace'))
    return write ? 'workspace:write' : 'workspace:read';
  if ('team' in rule || ('self' in rule && rule.self === 'team')) return 'team:member';
  return 'user';
}

/**
 * Whether tokens granted to third-party applications may call the operation: the
 * declaration (`delegated: false`, or per operation, `read` or `write`), else the default of
 * the operation's access level (refused for team owners' and admins' operations).
 */
export function resourceDelegation(options: ApiResourceOptions, operation: Operation): boolean {
  const declared = options.delegated;
  if (typeof declared === 'boolean') return declared;
  const own = declared?.[operation] ?? declared?.[isWrite(operation) ? 'write' : 'read'];
  return own ?? delegatedByDefault(resourceAccess(options, operation));
}

function isWrite(operation: Operation): boolean {
  return operation === 'post' || operation === 'put' || operation === 'delete';
}
