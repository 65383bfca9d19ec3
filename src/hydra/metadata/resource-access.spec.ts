import { assertDelegation, delegatedByDefault } from '../../access/access-level';
import type { Principal } from '../../access/principal';
import type { ApiResourceOptions } from '../core/declaration';
import { resourceAccess, resourceDelegation } from './resource-access';

const team: ApiResourceOptions = {
  path: '/teams',
  tenancy: { self: 'team' },
  access: { post: 'user', put: 'team:admin', delete: 'team:owner' },
};
const members: ApiResourceOptions = {
  path: '/workspace_members',
  tenancy: { workspace: 'workspace' },
  delegated: { write: false },
};

describe('delegated tokens in declared access', () => {
  it('refuses team owners’ and admins’ operations unless declared', () => {
    expect(delegatedByDefault('team:admin')).toBe(false);
    expect(delegatedByDefault('team:owner')).toBe(false);
    for (const level of ['public', 'user', 'workspace:read', 'workspace:write', 'team:member'])
      expect(delegatedByDefault(level as never)).toBe(true);
    expect(resourceAccess(team, 'put')).toBe('team:admin');
    expect(resourceDelegation(team, 'put')).toBe(false);
    expect(resourceDelegation(team, 'delete')).toBe(false);
    expect(resourceDelegation(team, 'post')).toBe(true);
    expect(resourceDelegation(team, 'get')).toBe(true);
  });

  it('takes the declaration: all operations, per operation, or read / write', () => {
    expect(resourceDelegation({ ...team, delegated: false }, 'get')).toBe(false);
    expect(resourceDelegation({ ...team, delegated: true }, 'delete')).toBe(true);
    expect(resourceDelegation(members, 'list')).toBe(true);
    expect(resourceDelegation(members, 'put')).toBe(false);
    expect(resourceDelegation(members, 'delete')).toBe(false);
    expect(resourceDelegation({ ...members, delegated: { write: false, put: true } }, 'put')).toBe(
      true,
    );
  });

  it('answers 403 only to a delegated principal on a refusing operation', () => {
    const principal = { userId: 'u', email: 'e', teamIds: [], adminTeamIds: [], workspaceIds: [] };
    const delegated: Principal = { ...principal, delegated: true };
    expect(() => assertDelegation(principal, false)).not.toThrow();
    expect(() => assertDelegation(delegated, true)).not.toThrow();
    expect(() => assertDelegation(delegated, false)).toThrow(/third-party application/);
  });
});
