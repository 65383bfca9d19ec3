import { assertAccess } from '../access/access-level';
import type { Principal } from '../access/principal';
import type { DataProvider } from '../hydra/collection/data-provider';
import { applyTenancy } from '../hydra/collection/tenancy';
import { BadRequestError } from '../common/errors/api-errors';
import type { ResourceMeta } from '../hydra/core/resource-meta';
import type { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { resolvePropertyPath } from '../hydra/query/property-path';
import { ResolvedPath } from '../hydra/core/filter';
import type { QueryParams } from '../hydra/core/query-params';
import { SqlQuery } from '../hydra/core/sql-query';
import type { ApiRecord } from '../hydra/core/api-record';

export interface StoredRecord {
  /** The row's uuid (the record's IRI uses its code). */
  id: string;
  record: ApiRecord;
}

/**
 * Reads records of a resource whose IRIs use a code unique per workspace (fields, layouts):
 * rows with their uuid, in creation order, as the record reader renders them.
 */
export async function selectRecords(
  data: DataProvider,
  registry: ResourceRegistry,
  resource: ResourceMeta,
  where: (query: SqlQuery, resolve: (path: string) => ResolvedPath | null) => void,
): Promise<StoredRecord[]> {
  const query = new SqlQuery(resource.table, 't');
  where(query, (path) => resolvePropertyPath(resource, path, query, registry.describeColumn));
  const select = data.reader.select(resource, query);
  const { rows } = await data.pool.query(
    `SELECT t.id AS row_id, ${select} ${query.fromClause()}${query.whereClause()} ORDER BY t.created_at, t.id`,
    query.params,
  );
  const reader = data.reader.reader(resource);
  return rows.map((r: Record<string, unknown>) => ({
    id: r.row_id as string,
    record: reader.map(r),
  }));
}

/** Records of the caller's workspaces, narrowed by the resource's filters and `extra`. */
export function visibleRecords(
  data: DataProvider,
  registry: ResourceRegistry,
  resource: ResourceMeta,
  principal: Principal,
  params: QueryParams,
  extra?: (query: SqlQuery) => void,
): Promise<StoredRecord[]> {
  return selectRecords(data, registry, resource, (query, resolve) => {
    applyTenancy(resource, query, principal, resolve);
    for (const filter of resource.filters) filter.apply({ params, query, resolve });
    extra?.(query);
  });
}

export function ambiguousCode(code: string): BadRequestError {
  return new BadRequestError(
    `Several records have the code "${code}": give the "workspace" and "entity" query parameters.`,
  );
}

/**
 * The declared `workspace:write` of a code-addressed write, checked once its workspace is
 * known: read-only members read definitions but never change them (403).
 */
export function assertWritable(principal: Principal, workspaceId: string | null | undefined): void {
  if (workspaceId) assertAccess(principal, 'workspace:write', { workspaceId });
}
