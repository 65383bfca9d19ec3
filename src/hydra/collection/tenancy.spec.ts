import type { Principal } from '../../access/principal';
import type { TenancyRule } from '../core/declaration';
import type { ResourceMeta } from '../core/resource-meta';
import type { ResolvedPath } from '../core/filter';
import { SqlQuery } from '../core/sql-query';
import { applyTenancy, tenancyAdmitsId } from './tenancy';

const principal: Principal = {
  userId: 'u1',
  email: 'a@b.test',
  teamIds: ['t1'],
  adminTeamIds: ['t1'],
  workspaceIds: ['w1', 'w2'],
};

function scoped(tenancy: TenancyRule, who: Principal | null = principal) {
  const resource = { options: { tenancy }, shortName: 'X', idColumn: 'id' } as ResourceMeta;
  const query = new SqlQuery('x', 't');
  const resolve = (path: string): ResolvedPath => ({
    sql: `t.${path}_id`,
    type: 'string',
    isArray: false,
    isUuid: true,
    isText: false,
  });
  applyTenancy(resource, query, who, resolve);
  return query;
}

describe('applyTenancy', () => {
  it('scopes by a workspace path with one or many ids', () => {
    const q = scoped({ workspace: 'workspace' });
    expect(q.where).toEqual(['t.workspace_id = ANY($1::uuid[])']);
    expect(q.params).toEqual([['w1', 'w2']]);
    expect(scoped({ user: 'owner' }).where).toEqual(['t.owner_id = $1::uuid']);
  });

  it('ORs the rules of anyOf', () => {
    const q = scoped({ anyOf: [{ user: 'uploadedBy' }, { workspace: 'workspace' }] });
    expect(q.where).toEqual(['(t.uploadedBy_id = $1::uuid OR t.workspace_id = ANY($2::uuid[]))']);
    expect(q.params).toEqual(['u1', ['w1', 'w2']]);
  });

  it('drops anyOf rules that admit nothing, and admits nothing when none is left', () => {
    const none = { ...principal, workspaceIds: [], teamIds: [] };
    expect(scoped({ anyOf: [{ team: 'team' }, { workspace: 'workspace' }] }, none).where).toEqual([
      'FALSE',
    ]);
    expect(scoped({ anyOf: [{ user: 'owner' }, { workspace: 'workspace' }] }, none).where).toEqual([
      '(t.owner_id = $1::uuid)',
    ]);
  });

  it('admits nothing without a principal and everything for public resources', () => {
    expect(scoped({ workspace: 'workspace' }, null).where).toEqual(['FALSE']);
    expect(scoped('public', null).where).toEqual([]);
  });
});

describe('tenancyAdmitsId', () => {
  const resource = (tenancy: TenancyRule) => ({ options: { tenancy } }) as ResourceMeta;

  it("decides a `self` tenancy from the principal's own lists", () => {
    expect(tenancyAdmitsId(resource({ self: 'workspace' }), principal, 'w2')).toBe(true);
    expect(tenancyAdmitsId(resource({ self: 'workspace' }), principal, 'w3')).toBe(false);
    expect(tenancyAdmitsId(resource({ self: 'team' }), principal, 't1')).toBe(true);
    expect(tenancyAdmitsId(resource({ self: 'user' }), principal, 'u1')).toBe(true);
    expect(tenancyAdmitsId(resource({ self: 'user' }), principal, 'u2')).toBe(false);
    expect(tenancyAdmitsId(resource({ self: 'workspace' }), null, 'w1')).toBe(false);
  });

  it('leaves every other rule to the database', () => {
    expect(tenancyAdmitsId(resource({ workspace: 'workspace' }), principal, 'w1')).toBeUndefined();
    expect(tenancyAdmitsId(resource('public'), principal, 'w1')).toBeUndefined();
    expect(
      tenancyAdmitsId(resource({ anyOf: [{ self: 'workspace' }] }), principal, 'w1'),
    ).toBeUndefined();
  });
});
