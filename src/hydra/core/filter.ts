import type { ApiValueType } from './declaration';
import type { QueryParams } from './query-params';
import type { SqlQuery } from './sql-query';

/** A property path resolved to SQL (query/property-path.ts), as filters apply it. */
export interface ResolvedPath {
  /** SQL expression of the value, using aliases joined into the query. */
  sql: string;
  type: ApiValueType;
  isArray: boolean;
  isUuid: boolean;
  /** Text columns can be empty strings; `empty[...]` checks them. */
  isText: boolean;
}

/** One variable of `hydra:search` and one OpenAPI query parameter. */
export interface SearchVariable {
  variable: string;
  property: string | null;
  required: boolean;
  schema: {
    type: 'string' | 'integer' | 'boolean' | 'array';
    items?: { type: string };
    enum?: string[];
  };
  description?: string;
}

export interface FilterApplyContext {
  params: QueryParams;
  query: SqlQuery;
  resolve(path: string): ResolvedPath | null;
}

export interface Filter {
  describe(typeOf: (property: string) => ApiValueType | undefined): SearchVariable[];
  apply(ctx: FilterApplyContext): void;
}

/** What `@ApiFilter(...)` takes: a filter instance. */
export type FilterDeclaration = Filter;
