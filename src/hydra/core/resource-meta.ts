import type { EntityMetadata } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { RelationMetadata } from 'typeorm/metadata/RelationMetadata';
import type {
  ApiPropertyOptions,
  ApiResourceOptions,
  ApiValueType,
  Operation,
  WriteOperation,
} from './declaration';
import type { Filter } from './filter';

/**
 * A resource as the layer knows it once its declaration is resolved against TypeORM's
 * metadata (metadata/resource-metadata.ts builds it, the ResourceRegistry holds it).
 */
export type PropertyKind =
  'column' | 'embedded' | 'reference' | 'object' | 'collection' | 'computed';

export interface PropertyMeta {
  name: string;
  kind: PropertyKind;
  type: ApiValueType;
  items?: ApiValueType;
  nullable: boolean;
  readable: boolean;
  /** Left out of the resource's own collection unless its item group is asked for. */
  itemOnly: boolean;
  writable: ReadonlySet<WriteOperation>;
  options: ApiPropertyOptions;
  /** Column of a plain or embedded value; FK column of a to-one relation. */
  column?: ColumnMetadata;
  /** Sub-properties of an embedded value object (address). */
  children?: PropertyMeta[];
  relation?: RelationMetadata;
  /** Related entity class (references, embedded relations, collections). */
  target?: Function;
  /** Class of an embedded value object. */
  embeddedType?: Function;
  isUuid: boolean;
}

export interface ResourceMeta {
  target: Function;
  shortName: string;
  path: string;
  options: ApiResourceOptions;
  operations: ReadonlySet<Operation>;
  entity: EntityMetadata;
  table: string;
  idProperty: string;
  idColumn: string;
  /** False when items are identified by a text code (see identifiers.ts). */
  idIsUuid: boolean;
  properties: PropertyMeta[];
  byName: Map<string, PropertyMeta>;
  filters: Filter[];
  maxItemsPerPage: number;
  /** `get<ShortName>` when some properties are `itemOnly` (serialization-groups.ts), else null. */
  itemGroup: string | null;
}

export type ColumnDescriber = (column: ColumnMetadata) => { type: ApiValueType; isUuid: boolean };

/** Finds the resolved resource of a class (the ResourceRegistry). */
export interface ResourceLookup {
  get(target: Function): ResourceMeta;
}
