import type { ColumnDescriber, ResourceMeta } from '../core/resource-meta';
import { SqlQuery, quoteIdent } from '../core/sql-query';
import type { ResolvedPath } from '../core/filter';

/**
 * Resolves a dotted property path (`address.city`, `shipmentStatus.code`,
 * `orderItem.order.id`) to a SQL expression, adding LEFT JOINs for to-one
 * relations. `relation.id` uses the foreign key column without a join.
 */
export function resolvePropertyPath(
  resource: ResourceMeta,
  path: string,
  query: SqlQuery,
  describe: ColumnDescriber,
): ResolvedPath | null {
  const computed = resource.byName.get(path);
  if (computed?.kind === 'computed' && computed.options.sql) {
    return {
      sql: '(' + computed.options.sql.replace(/\{a\}/g, query.alias) + ')',
      type: computed.type,
      isArray: computed.type === 'array',
      isUuid: false,
      isText: computed.type === 'string',
    };
  }
  const segments = path.split('.');
  let entity = resource.entity;
  let alias = query.alias;
  let i = 0;
  while (i < segments.length) {
    const rest = segments.slice(i).join('.');
    const column = entity.findColumnWithPropertyPath(rest);
    if (column && !column.relationMetadata) {
      const { type, isUuid } = describe(column);
      return {
        sql: `${alias}.${quoteIdent(column.databaseName)}`,
        type: column.isArray ? 'array' : type,
        isArray: column.isArray,
        isUuid,
        isText: !column.isArray && type === 'string' && !isUuid,
      };
    }
    const relation = entity.findRelationWithPropertyPath(segments[i]);
    if (!relation || !(relation.isManyToOne || relation.isOneToOneOwner)) return null;
    const fk = relation.joinColumns[0];
    const remaining = segments.slice(i + 1);
    const target = relation.inverseEntityMetadata;
    const targetId = target.primaryColumns[0];
    if (
      remaining.length === 0 ||
      (remaining.length === 1 && remaining[0] === targetId.propertyName)
    ) {
      return {
        sql: `${alias}.${quoteIdent(fk.databaseName)}`,
        type: 'string',
        isArray: false,
        isUuid: true,
        isText: false,
      };
    }
    const joinAlias = `j_${segments.slice(0, i + 1).join('_')}`;
    query.join(
      joinAlias,
      `LEFT JOIN ${quoteIdent(target.tableName)} ${joinAlias} ON ${joinAlias}.${quoteIdent(
        targetId.databaseName,
      )} = ${alias}.${quoteIdent(fk.databaseName)}`,
    );
    entity = target;
    alias = joinAlias;
    i++;
  }
  return null;
}
