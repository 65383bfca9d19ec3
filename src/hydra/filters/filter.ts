import type { ApiValueType } from '../metadata/decorators';
import type { QueryParams } from '../query/query-params';
import type { ResolvedPath } from '../query/property-path';
import type { SqlQuery } from '../query/sql-query';

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

export function scalarSchema(type: ApiValueType | undefined): SearchVariable['schema'] {
  return { type: type === 'integer' ? 'integer' : type === 'boolean' ? 'boolean' : 'string' };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Accepts an IRI (`/workspaces/<uuid>`) or a raw id; null when neither is a UUID. */
export function identifierFrom(value: string): string | null {
  const id = value.includes('/') ? value.slice(value.lastIndexOf('/') + 1) : value;
  return UUID.test(id) ? id.toLowerCase() : null;
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * Whether PostgreSQL text can hold the string: anything but U+0000 (NUL). No stored text
 * equals a value with a NUL, and binding one fails the whole statement (22021), so filters
 * let such values match nothing instead of sending them.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000');
}

export function parseBoolean(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return undefined;
}
