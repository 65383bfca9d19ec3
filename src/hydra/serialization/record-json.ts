import type { PropertyMeta } from '../core/resource-meta';
import { quoteIdent } from '../core/sql-query';

/**
 * The same rendering as RecordReader's row mapper (record-reader.ts `valueConverter`), written
 * as SQL: each property's value as an expression whose JSON form is the mapper's, so that
 * PostgreSQL hands over an item's JSON text whole (PostgREST's design). For one record this is
 * cheaper on both sides: the backend spends 5-10 µs more, the API process (one core for all its
 * requests) about 55 µs less in the driver alone, and nothing on mapping and JSON.stringify.
 * For a 30-row page it is not (the backend +45 %, as much as the API saves): lists keep the
 * mapper (bench/README.md). The two renderings agree value for value
 * (`test/hydra-json-rendering.e2e-spec.ts` compares them on every resource); a property whose
 * SQL type these rules do not cover answers null, and its resource keeps the row mapper.
 */

/** SQL types read as their own JSON form by the mapper's default rule (pg parses them so). */
const NATIVE_JSON = new Set(['text', 'varchar', 'character varying', 'citext', 'uuid', 'boolean']);
const JSON_DOCUMENTS = new Set(['json', 'jsonb', 'simple-json']);
const INTEGERS = new Set(['int', 'integer', 'int4', 'smallint', 'int2']);

/** A quoted SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * A JSON object of [name, value expression] pairs (jsonValueSql), keys in this order, written
 * compactly as JSON.stringify writes it (row_to_json over named columns; json_build_object
 * would put spaces around every colon).
 */
export function jsonObjectSql(pairs: ReadonlyArray<readonly [string, string]>): string {
  if (pairs.length === 0) return `'{}'::json`;
  return `(SELECT row_to_json(r) FROM (SELECT ${pairs.map(([k, v]) => `${v} AS ${quoteIdent(k)}`).join(', ')}) r)`;
}

/** An IRI `base/id` from an id expression (null for a null id: the mapper's reference rule). */
export function iriSql(base: string, idExpr: string): string {
  return `${sqlString(base + '/')} || ${idExpr}`;
}

/** The SQL type of a column property, lower-cased; undefined for computed properties. */
function columnType(prop: PropertyMeta): string | undefined {
  const type = prop.column?.type;
  return typeof type === 'string' ? type.toLowerCase() : undefined;
}

/**
 * The property's value as an SQL expression over `expr` (its column or computed SQL) whose
 * JSON form, as row_to_json writes each column by its type, is what `valueConverter` makes of
 * the value pg reads; null when the rules do not cover its SQL type. Values keep plain SQL
 * types (text, numbers, booleans, arrays, json) for row_to_json to write: a to_json() around
 * each would look its argument's type up again on every call.
 */
export function jsonValueSql(prop: PropertyMeta, expr: string): string | null {
  const computed = prop.kind === 'computed';
  const type = columnType(prop);
  switch (prop.type) {
    case 'datetime':
      // toISOString without the milliseconds: seconds truncated, UTC, "+00:00".
      if (!computed && type !== 'timestamptz' && type !== 'timestamp with time zone') return null;
      return `to_char((${expr})::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')`;
    case 'integer':
      if (computed) return `(${expr})::numeric`;
      return type && (INTEGERS.has(type) || type === 'bigint' || type === 'int8') ? expr : null;
    case 'number':
      // Number(v): a double, and JSON has no NaN or infinities (JSON.stringify writes null).
      return `CASE WHEN (${expr})::float8 IN ('NaN', 'Infinity', '-Infinity') THEN NULL ELSE (${expr})::float8 END`;
    case 'decimal':
      return `(${expr})::text`;
    case 'array':
      if (!computed && !(type && (JSON_DOCUMENTS.has(type) || prop.column?.isArray))) return null;
      return prop.nullable ? expr : `COALESCE(to_json(${expr}), '[]'::json)`;
    default:
      if (computed) {
        if (prop.type === 'boolean') return `(${expr})::boolean`;
        if (prop.type === 'object') return expr;
        return `(${expr})::text`;
      }
      if (type && (NATIVE_JSON.has(type) || JSON_DOCUMENTS.has(type) || INTEGERS.has(type)))
        return expr;
      return null;
  }
}

/**
 * Whether the mapper counts the property as present in an embedded value: any child whose
 * converted value is not null (a non-nullable array child converts null to []).
 */
export function presentSql(prop: PropertyMeta, expr: string): string {
  return prop.type === 'array' && !prop.nullable ? 'TRUE' : `${expr} IS NOT NULL`;
}
