import type { SearchVariable } from '../core/filter';
import { resolvePropertyPath } from '../query/property-path';
import { SqlQuery } from '../core/sql-query';
import type { ResourceMeta } from '../core/resource-meta';
import type { ResourceRegistry } from './resource-registry';

const cache = new WeakMap<ResourceMeta, SearchVariable[]>();

/** The filter variables of a resource in declaration order (hydra:search and OpenAPI). */
export function searchVariables(
  registry: ResourceRegistry,
  resource: ResourceMeta,
): SearchVariable[] {
  let vars = cache.get(resource);
  if (!vars) {
    const scratch = new SqlQuery(resource.table, 't');
    const typeOf = (path: string) =>
      resolvePropertyPath(resource, path, scratch, registry.describeColumn)?.type;
    vars = resource.filters.flatMap((f) => f.describe(typeOf));
    cache.set(resource, vars);
  }
  return vars;
}

/** Target resource of a relation path such as `workspace` or `workspace.team`. */
export function relationTarget(
  registry: ResourceRegistry,
  resource: ResourceMeta,
  path: string,
): ResourceMeta | null {
  let entity = resource.entity;
  for (const segment of path.split('.')) {
    const relation = entity.findRelationWithPropertyPath(segment);
    if (!relation) return null;
    entity = relation.inverseEntityMetadata;
  }
  return registry.get(entity.target as Function);
}
