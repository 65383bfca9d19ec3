import type { DataSource, EntityMetadata } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { Filter } from '../core/filter';
import { itemGroupOf, SerializationGroupsParameter } from '../serialization/serialization-groups';
import { getFilterDeclarations, getPropertyOptions, getResourceOptions } from './decorators';
import { ApiPropertyOptions, ApiValueType, Operation, WriteOperation } from '../core/declaration';
import type { ColumnDescriber, PropertyMeta, ResourceMeta } from '../core/resource-meta';

const ALL_OPERATIONS: Operation[] = ['list', 'get', 'post', 'put', 'delete'];

export function buildResourceMeta(target: Function, dataSource: DataSource): ResourceMeta {
  const options = getResourceOptions(target);
  if (!options) throw new Error(`${target.name} has no @ApiResource`);
  const entity = dataSource.getMetadata(target);
  const declared = getPropertyOptions(target);
  const properties: PropertyMeta[] = [];
  for (const [name, opts] of declared) {
    properties.push(buildProperty(name, opts, entity, dataSource));
  }
  const idProperty = options.identifier ?? 'id';
  const idColumn = entity.findColumnWithPropertyName(idProperty);
  if (!idColumn) throw new Error(`${target.name} has no identifier column ${idProperty}`);
  const shortName = options.shortName ?? target.name;
  const itemOnly = properties.filter((p) => p.readable && p.itemOnly).map((p) => p.name);
  const itemGroup = itemOnly.length > 0 ? itemGroupOf(shortName) : null;
  const filters = getFilterDeclarations(target).map((d) => d as Filter);
  if (itemGroup) filters.push(new SerializationGroupsParameter(itemGroup, itemOnly, options.path));
  return {
    target,
    shortName,
    path: options.path,
    options,
    operations: new Set(options.operations ?? ALL_OPERATIONS),
    entity,
    table: entity.tableName,
    idProperty,
    idColumn: idColumn.databaseName,
    idIsUuid: dataSource.driver.normalizeType(idColumn).toLowerCase() === 'uuid',
    properties,
    byName: new Map(properties.map((p) => [p.name, p])),
    filters,
    maxItemsPerPage: options.maxItemsPerPage ?? 500,
    itemGroup,
  };
}

function buildProperty(
  name: string,
  opts: ApiPropertyOptions,
  entity: EntityMetadata,
  dataSource: DataSource,
): PropertyMeta {
  const base = {
    name,
    options: opts,
    readable: opts.readable !== false,
    itemOnly: opts.itemOnly === true,
    writable: new Set(opts.writable ?? []),
  };
  if (opts.sql) {
    return {
      ...base,
      kind: 'computed',
      type: opts.type ?? 'string',
      items: opts.items,
      nullable: opts.nullable ?? true,
      writable: new Set(),
      isUuid: false,
    };
  }
  const relation = entity.findRelationWithPropertyPath(name);
  if (relation) {
    const target = relation.inverseEntityMetadata.target as Function;
    if (relation.isManyToOne || relation.isOneToOneOwner) {
      return {
        ...base,
        kind: opts.embed ? 'object' : 'reference',
        type: opts.embed ? 'object' : 'string',
        nullable: opts.nullable ?? relation.isNullable,
        column: relation.joinColumns[0],
        relation,
        target,
        isUuid: true,
      };
    }
    return {
      ...base,
      kind: 'collection',
      type: 'array',
      items: 'string',
      nullable: false,
      relation,
      target,
      isUuid: false,
    };
  }
  const embedded = entity.embeddeds.find((e) => e.propertyName === name);
  if (embedded) {
    const children: PropertyMeta[] = embedded.columns.map((c) =>
      columnProperty(c, c.propertyName, base, dataSource),
    );
    return {
      ...base,
      kind: 'embedded',
      type: 'object',
      nullable: opts.nullable ?? true,
      children,
      embeddedType: embedded.type as Function,
      isUuid: false,
    };
  }
  const column = entity.findColumnWithPropertyName(name);
  if (!column)
    throw new Error(`${entity.name}.${name}: @ApiProperty on something that is not mapped`);
  return columnProperty(column, name, base, dataSource);
}

export function columnDescriber(dataSource: DataSource): ColumnDescriber {
  return (column) => {
    const dbType = dataSource.driver.normalizeType(column).toLowerCase();
    return { type: apiTypeOf(dbType), isUuid: dbType === 'uuid' };
  };
}

function columnProperty(
  column: ColumnMetadata,
  name: string,
  base: {
    options: ApiPropertyOptions;
    readable: boolean;
    itemOnly: boolean;
    writable: Set<WriteOperation>;
  },
  dataSource: DataSource,
): PropertyMeta {
  const dbType = dataSource.driver.normalizeType(column).toLowerCase();
  const isArray = column.isArray;
  const type: ApiValueType = base.options.type ?? (isArray ? 'array' : apiTypeOf(dbType));
  return {
    ...base,
    name,
    kind: 'column',
    type,
    items: base.options.items ?? (isArray ? apiTypeOf(dbType) : undefined),
    nullable: base.options.nullable ?? column.isNullable,
    column,
    isUuid: dbType === 'uuid',
  };
}

function apiTypeOf(dbType: string): ApiValueType {
  if (/^(int|integer|smallint|int2|int4|int8|bigint)$/.test(dbType)) return 'integer';
  if (/^(numeric|decimal)/.test(dbType)) return 'decimal';
  if (/^(real|double precision|float)/.test(dbType)) return 'number';
  if (dbType === 'boolean' || dbType === 'bool') return 'boolean';
  if (dbType.startsWith('timestamp') || dbType === 'date') return 'datetime';
  if (dbType === 'json' || dbType === 'jsonb') return 'object';
  return 'string';
}
