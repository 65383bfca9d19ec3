import type { ApiValueType } from '../core/declaration';
import { type ResolvedPath, Filter, FilterApplyContext, SearchVariable } from '../core/filter';
import { parseBoolean, scalarSchema } from './filter';
import { identifierFrom, isStorableText } from '../core/identifiers';

export interface ExactFilterOptions {
  /** Also accept `p[]` (default true). */
  array?: boolean;
}

/**
 * API Platform's SearchFilter with the `exact` strategy: `p=v` is `=`,
 * `p[]=a&p[]=b` is `IN`. References and ids take an IRI or a raw id.
 * Values that cannot be of the property's type match nothing for ids and text
 * (text with a NUL) and are ignored otherwise, so a bad value never reaches SQL.
 */
export class ExactFilter implements Filter {
  private readonly entries: Array<[string, boolean]>;

  constructor(properties: Array<string | [string, ExactFilterOptions]>) {
    this.entries = properties.map((p) =>
      Array.isArray(p) ? [p[0], p[1].array !== false] : [p, true],
    );
  }

  describe(typeOf: (property: string) => ApiValueType | undefined): SearchVariable[] {
    const out: SearchVariable[] = [];
    for (const [property, array] of this.entries) {
      const type = typeOf(property);
      const scalar = scalarSchema(type === 'array' ? 'string' : type);
      out.push({ variable: property, property, required: false, schema: scalar });
      if (array) {
        out.push({
          variable: `${property}[]`,
          property,
          required: false,
          schema: { type: 'array', items: { type: scalar.type } },
        });
      }
    }
    return out;
  }

  apply(ctx: FilterApplyContext): void {
    for (const [property, array] of this.entries) {
      const many = array ? ctx.params.getArray(property) : undefined;
      const one = ctx.params.get(property);
      if (many === undefined && one === undefined) continue;
      const path = ctx.resolve(property);
      if (!path) continue;
      const values = (many ?? []).concat(one !== undefined ? [one] : []);
      const converted = convertAll(values, path);
      if (converted === undefined) continue;
      const { query } = ctx;
      if (converted.length === 0) {
        query.andWhere('FALSE');
      } else if (path.isArray) {
        query.andWhere(
          converted.length === 1
            ? `${path.sql} @> ARRAY[${query.param(converted[0])}]::text[]` // GIN-indexable
            : `${path.sql} && ${query.param(converted)}::text[]`,
        );
      } else {
        // Text compares as stored (deterministic collation) and ids in their canonical lower
        // case: such an equality can be answered by a maintained count of the values.
        const equality =
          path.isText || path.isUuid
            ? { sql: path.sql, values: converted.map((v) => String(v)) }
            : undefined;
        if (converted.length === 1) {
          query.andWhere(`${path.sql} = ${query.param(converted[0])}${cast(path)}`, equality);
        } else {
          // Without a cast PostgreSQL types the array from the column (text, citext).
          const arrayCast = cast(path) ? `${cast(path)}[]` : '';
          query.andWhere(`${path.sql} = ANY(${query.param(converted)}${arrayCast})`, equality);
        }
      }
    }
  }
}

function cast(path: ResolvedPath): string {
  if (path.isUuid) return '::uuid';
  if (path.type === 'integer') return '::bigint';
  if (path.type === 'decimal' || path.type === 'number') return '::numeric';
  if (path.type === 'boolean') return '::boolean';
  return '';
}

/** undefined: ignore the filter; []: match nothing. */
function convertAll(values: string[], path: ResolvedPath): unknown[] | undefined {
  if (path.isUuid) {
    return values.map(identifierFrom).filter((v): v is string => v !== null);
  }
  if (path.type === 'integer') {
    const ints = values.filter((v) => /^-?\d{1,15}$/.test(v)).map(Number);
    return ints.length ? ints : undefined;
  }
  if (path.type === 'decimal' || path.type === 'number') {
    const nums = values.filter((v) => /^-?\d+(\.\d+)?$/.test(v));
    return nums.length ? nums : undefined;
  }
  if (path.type === 'boolean') {
    const bools = values.map(parseBoolean).filter((v): v is boolean => v !== undefined);
    return bools.length ? bools : undefined;
  }
  return values.filter(isStorableText);
}
