import type { PropertyMeta } from '../metadata/resource-metadata';
import { quoteIdent } from '../query/sql-query';

/**
 * The same rendering as RecordReader's row mapper (record-reader.ts `valueConverter`), written
 * as SQL: each property's value as a `json` expression, so that PostgreSQL hands over an item's
 * JSON text whole (PostgREST's design). Parsing a wide row (a parser per column, a Date per
 * timestamp), mapping it and stringifying it again cost the API process, which answers every
 * request on one core, about a tenth of a single-row look-up (bench/README.md); PostgreSQL
 * renders it on the connection's backend. The two renderings agree value for value
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
 * A JSON object of [name, json expression] pairs, keys in this order, written compactly as
 * JSON.stringify writes it (row_to_json over named columns; json_build_object would put spaces
 * around every colon).
 */
export function jsonObjectSql(pairs: ReadonlyArray<readonly [string, string]>): string {
  if (pairs.length === 0) return `'{}'::json`;
  return `(SELECT row_to_json(r) FROM (SELECT ${pairs.map(([k, v]) => `${v} AS ${quoteIdent(k)}`).join(', ')}) r)`;
}

/** An IRI `base/id` from an id expression, null for a null id (the mapper's reference rule). */
export function iriSql(base: string, idExpr: string): string {
  return `CASE WHEN ${idExpr} IS NULL THEN NULL ELSE to_json(${sqlString(base + '/')} || ${idExpr}) END`;
}

/** IRIs of an id array, in its order (the mapper's collection rule: no array is []). */
export function iriArraySql(base: string, idsExpr: string): string {
  return `array_to_json(ARRAY(SELECT ${sqlString(base + '/')} || u.e FROM unnest(${idsExpr}) WITH ORDINALITY u(e, n) ORDER BY u.n))`;
}

/** The SQL type of a column property, lower-cased; undefined for computed properties. */
function columnType(prop: PropertyMeta): string | undefined {
  const type = prop.column?.type;
  return typeof type === 'string' ? type.toLowerCase() : undefined;
}

/**
 * The property's value as a json expression over `expr` (its column or computed SQL), as
 * `valueConverter` renders the value pg reads; null when the rules do not cover its SQL type.
 */
export function jsonValueSql(prop: PropertyMeta, expr: string): string | null {
  const computed = prop.kind === 'computed';
  const type = columnType(prop);
  switch (prop.type) {
    case 'datetime':
      // toISOString without the milliseconds: seconds truncated, UTC, "+00:00".
      if (!computed && type !== 'timestamptz' && type !== 'timestamp with time zone') return null;
      return `CASE WHEN ${expr} IS NULL THEN NULL ELSE to_json(to_char((${expr})::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')) END`;
    case 'integer':
      if (computed || (type && (INTEGERS.has(type) || type === 'bigint' || type === 'int8')))
        return `to_json((${expr})::numeric)`;
      return null;
    case 'number':
      // Number(v): a double, and JSON has no NaN or infinities (JSON.stringify writes null).
      return `CASE WHEN (${expr})::float8 IN ('NaN', 'Infinity', '-Infinity') THEN NULL ELSE to_json((${expr})::float8) END`;
    case 'decimal':
      return `to_json((${expr})::text)`;
    case 'array':
      if (!computed && !(type && (JSON_DOCUMENTS.has(type) || prop.column?.isArray))) return null;
      return prop.nullable ? `to_json(${expr})` : `COALESCE(to_json(${expr}), '[]'::json)`;
    default:
      if (computed) {
        if (prop.type === 'boolean') return `to_json((${expr})::boolean)`;
        if (prop.type === 'object') return `to_json(${expr})`;
        return `to_json((${expr})::text)`;
      }
      if (type && (NATIVE_JSON.has(type) || JSON_DOCUMENTS.has(type))) return `to_json(${expr})`;
      if (type && INTEGERS.has(type)) return `to_json(${expr})`;
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
