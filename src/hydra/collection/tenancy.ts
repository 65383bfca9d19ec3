import type { Principal } from '../../access/principal';
import type { TenancyRule } from '../core/declaration';
import type { ResourceMeta } from '../core/resource-meta';
import type { ResolvedPath } from '../core/filter';
import { Equality, SqlQuery, quoteIdent } from '../core/sql-query';

type SingleRule = Exclude<TenancyRule, 'public' | { anyOf: unknown }>;

/**
 * Restricts a query to the caller's tenancy as the resource declares it. It
 * is applied by the data provider to every collection, item and reference
 * look-up, so no resource can forget it.
 */
export function applyTenancy(
  resource: ResourceMeta,
  query: SqlQuery,
  principal: Principal | null,
  resolve: (path: string) => ResolvedPath | null,
): void {
  const rule = resource.options.tenancy;
  if (rule === 'public') return;
  if (!principal) {
    query.andWhere('FALSE');
    return;
  }
  if ('anyOf' in rule) {
    const parts = rule.anyOf.map(
      (r) => tenancyCondition(resource, r, query, principal, resolve).condition,
    );
    const admitted = parts.filter((p) => p !== 'FALSE');
    query.andWhere(admitted.length === 0 ? 'FALSE' : `(${admitted.join(' OR ')})`);
    return;
  }
  const { condition, equality } = tenancyCondition(resource, rule, query, principal, resolve);
  query.andWhere(condition, equality);
}

/**
 * Whether the principal's tenancy admits the record `id` of `resource` when that is decided
 * by the id alone (tenancy `self`: the id is one of the principal's workspaces, teams, or the
 * principal itself), without telling whether the row exists; undefined for any other rule.
 */
export function tenancyAdmitsId(
  resource: ResourceMeta,
  principal: Principal | null,
  id: string,
): boolean | undefined {
  const rule = resource.options.tenancy;
  if (rule === 'public' || !('self' in rule)) return undefined;
  if (!principal) return false;
  const ids =
    rule.self === 'workspace'
      ? principal.workspaceIds
      : rule.self === 'team'
        ? principal.teamIds
        : [principal.userId];
  return ids.includes(id);
}

function tenancyCondition(
  resource: ResourceMeta,
  rule: SingleRule,
  query: SqlQuery,
  principal: Principal,
  resolve: (path: string) => ResolvedPath | null,
): { condition: string; equality?: Equality } {
  let sql: string;
  let ids: string[];
  if ('self' in rule) {
    sql = `${query.alias}.${quoteIdent(resource.idColumn)}`;
    ids =
      rule.self === 'workspace'
        ? principal.workspaceIds
        : rule.self === 'team'
          ? principal.teamIds
          : [principal.userId];
  } else {
    const [path, scope] =
      'workspace' in rule
        ? [rule.workspace, principal.workspaceIds]
        : 'team' in rule
          ? [rule.team, principal.teamIds]
          : [rule.user, [principal.userId]];
    const resolved = resolve(path);
    if (!resolved) throw new Error(`${resource.shortName}: tenancy path ${path} does not resolve`);
    sql = resolved.sql;
    ids = scope;
  }
  if (ids.length === 0) return { condition: 'FALSE' };
  const equality = { sql, values: ids };
  // One id is by far the common case: a plain equality lets the planner walk
  // the (workspace_id, sort key) index in order.
  if (ids.length === 1) return { condition: `${sql} = ${query.param(ids[0])}::uuid`, equality };
  return { condition: `${sql} = ANY(${query.param(ids)}::uuid[])`, equality };
}
