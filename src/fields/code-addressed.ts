import { assertAccess } from '../access/access-level';
import type { Principal } from '../access/principal';
import { query } from '../database/query';
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
  const sql = new SqlQuery(resource.table, 't');
  where(sql, (path) => resolvePropertyPath(resource, path, sql, registry.describeColumn));
  const select = data.reader.select(resource, sql);
  // The select list and FROM the Hydra layer generates from the resource's declaration.
  const rows = await query<Record<string, unknown>>(
    data.pool,
    `SELECT t.id AS row_id, ${select} ${sql.fromClause()}${sql.whereClause()} ORDER BY t.created_at, t.id`,
    sql.params,
  );
  const reader = data.reader.reader(resource);
  return rows.map((r) => ({
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
