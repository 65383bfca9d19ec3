import type { ApiValueType } from '../core/declaration';
import type { SearchVariable } from '../core/filter';

export function scalarSchema(type: ApiValueType | undefined): SearchVariable['schema'] {
  return { type: type === 'integer' ? 'integer' : type === 'boolean' ? 'boolean' : 'string' };
}

export function parseBoolean(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return undefined;
}
