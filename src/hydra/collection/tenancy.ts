import type { Principal } from '../../access/principal';
import type { ResourceMeta } from '../metadata/resource-metadata';
import type { ResolvedPath } from '../query/property-path';
import { SqlQuery, quoteIdent } from '../query/sql-query';

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
  if (ids.length === 0) query.andWhere('FALSE');
  // One id is by far the common case: a plain equality lets the planner walk
  // the (workspace_id, sort key) index in order.
  else if (ids.length === 1) query.andWhere(`${sql} = ${query.param(ids[0])}::uuid`);
  else query.andWhere(`${sql} = ANY(${query.param(ids)}::uuid[])`);
}
