import type { PropertyMeta, ResourceLookup, ResourceMeta } from '../core/resource-meta';
import { SqlQuery, quoteIdent } from '../core/sql-query';
import type { RecordView } from './serialization-groups';
import { iriSql, jsonObjectSql, jsonValueSql, presentSql, sqlString } from './record-json';
import type { ApiRecord } from '../core/api-record';

interface Reader {
  /** SELECT list entries (`expr AS "cN"`). */
  columns: string[];
  /** The same, joined: the SELECT list. */
  selectList: string;
  /** Joins the selection needs, keyed like filter joins so they are shared. */
  joins: Array<[string, string]>;
  /** Array-valued properties with the SQL of their length, for CSV column planning. */
  arrayColumns: Array<{ property: string; length: string }>;
  map(row: Record<string, unknown>): ApiRecord;
  /**
   * The record as one `json` expression (needing the same joins as the select list), rendered
   * by PostgreSQL exactly as `map` renders the row (record-json.ts); null when a property's
   * type is not covered.
   */
  json: string | null;
}

type Step = (row: Record<string, unknown>, out: ApiRecord) => void;

/** How one property is read: a step of the row mapper and its SQL value for JSON (or null). */
interface CompiledProperty {
  step: Step;
  json: string | null;
}

/**
 * Compiles, once per resource, the SELECT list and the row mapper that turn
 * a SQL row into the record the API returns. One place decides how every
 * kind of property is read.
 */
export class RecordReader {
  private readonly cache: Record<RecordView, Map<Function, Reader>> = {
    whole: new Map(),
    list: new Map(),
  };

  constructor(private readonly registry: ResourceLookup) {}

  /** The reader of a resource's records, whole or in its collection's view. */
  reader(resource: ResourceMeta, view: RecordView = 'whole'): Reader {
    const shown = resource.itemGroup === null ? 'whole' : view;
    let reader = this.cache[shown].get(resource.target);
    if (!reader) {
      reader = this.compile(resource, 't', shown);
      this.cache[shown].set(resource.target, reader);
    }
    return reader;
  }

  /** Adds the selection's joins to a query and returns the SELECT list. */
  select(resource: ResourceMeta, query: SqlQuery, view: RecordView = 'whole'): string {
    const reader = this.reader(resource, view);
    for (const [key, sql] of reader.joins) query.join(key, sql);
    return reader.selectList;
  }

  /**
   * The SELECT list and FROM over the rows a statement inserts (`source`, the name of its
   * `INSERT ... RETURNING *`) as `t`: records read by their own INSERT. The select takes no
   * parameters: the statement's are the INSERT's.
   */
  selectOverNew(resource: ResourceMeta, source: string): { select: string; from: string } {
    const query = new SqlQuery(source, 't');
    const select = this.select(resource, query);
    if (query.params.length > 0)
      throw new Error('A snapshot read with an INSERT takes no parameters');
    return { select, from: query.fromClause() };
  }

  private compile(resource: ResourceMeta, alias: string, view: RecordView): Reader {
    const columns: string[] = [];
    const joins: Array<[string, string]> = [];
    const arrayColumns: Reader['arrayColumns'] = [];
    const steps: Step[] = [];
    const json: Array<[string, string | null]> = [];
    const col = (expr: string): string => {
      const name = `c${columns.length}`;
      columns.push(`${expr} AS ${name}`);
      return name;
    };
    for (const prop of shownProperties(resource, view)) {
      const compiled = this.compileProperty(resource, prop, alias, col, joins, arrayColumns);
      steps.push(compiled.step);
      json.push([prop.name, compiled.json]);
    }
    const covered = json.every(([, expr]) => expr !== null);
    return {
      columns,
      selectList: columns.join(', '),
      joins,
      arrayColumns,
      json: covered ? jsonObjectSql(json as Array<[string, string]>) : null,
      map(row) {
        const out: ApiRecord = {};
        for (const step of steps) step(row, out);
        return out;
      },
    };
  }

  private compileProperty(
    resource: ResourceMeta,
    prop: PropertyMeta,
    alias: string,
    col: (expr: string) => string,
    joins: Array<[string, string]>,
    arrayColumns: Reader['arrayColumns'],
  ): CompiledProperty {
    const name = prop.name;
    switch (prop.kind) {
      case 'column': {
        const c = col(`${alias}.${quoteIdent(prop.column!.databaseName)}`);
        if (prop.type === 'array') {
          const expr = `${alias}.${quoteIdent(prop.column!.databaseName)}`;
          arrayColumns.push({
            property: name,
            length: prop.column!.isArray ? `cardinality(${expr})` : jsonArrayLength(expr),
          });
        }
        const convert = valueConverter(prop);
        return {
          step: (row, out) => {
            out[name] = convert(row[c]);
          },
          json: jsonValueSql(prop, `${alias}.${quoteIdent(prop.column!.databaseName)}`),
        };
      }
      case 'computed': {
        const expr = '(' + prop.options.sql!.replace(/\{a\}/g, alias) + ')';
        const c = col(expr);
        if (prop.type === 'array')
          arrayColumns.push({ property: name, length: `cardinality(${expr})` });
        const convert = valueConverter(prop);
        return {
          step: (row, out) => {
            out[name] = convert(row[c]);
          },
          json: jsonValueSql(prop, expr),
        };
      }
      case 'embedded': {
        const children = prop.children!.filter((c) => c.readable);
        const parts = children.map((child) => ({
          name: child.name,
          expr: `${alias}.${quoteIdent(child.column!.databaseName)}`,
          c: col(`${alias}.${quoteIdent(child.column!.databaseName)}`),
          convert: valueConverter(child),
          child,
        }));
        const values = parts.map((p) => [p.name, jsonValueSql(p.child, p.expr)] as const);
        return {
          step: (row, out) => {
            let any = false;
            const value: ApiRecord = {};
            for (const p of parts) {
              const v = p.convert(row[p.c]);
              if (v !== null && v !== undefined) any = true;
              value[p.name] = v;
            }
            out[name] = any ? value : null;
          },
          json: values.every(([, v]) => v !== null)
            ? `CASE WHEN ${parts.map((p) => presentSql(p.child, p.expr)).join(' OR ') || 'FALSE'} THEN ${jsonObjectSql(values as Array<[string, string]>)} END`
            : null,
        };
      }
      case 'reference': {
        const expr = `${alias}.${quoteIdent(prop.column!.databaseName)}`;
        const c = col(expr);
        const registry = this.registry;
        const target = prop.target!;
        let base: string | undefined;
        return {
          step: (row, out) => {
            const id = row[c];
            base ??= registry.get(target).path;
            out[name] = id == null ? null : `${base}/${id}`;
          },
          json: iriSql(registry.get(target).path, `${expr}::text`),
        };
      }
      case 'object': {
        const target = this.registry.get(prop.target!);
        const joinAlias = `j_${name}`;
        joins.push([
          joinAlias,
          `LEFT JOIN ${quoteIdent(target.table)} ${joinAlias} ON ${joinAlias}.${quoteIdent(target.idColumn)} = ${alias}.${quoteIdent(prop.column!.databaseName)}`,
        ]);
        const idCol = col(`${joinAlias}.${quoteIdent(target.idColumn)}`);
        const shown = prop.options.embedProperties;
        // Columns by default; computed properties only when embedProperties names them (each
        // is a subquery per row).
        const parts = target.properties
          .filter((p) => p.readable && (p.kind === 'column' || (shown && p.kind === 'computed')))
          .filter((p) => !shown || shown.includes(p.name))
          .map((p) => {
            const expr =
              p.kind === 'computed'
                ? `(${p.options.sql!.replace(/\{a\}/g, joinAlias)})`
                : `${joinAlias}.${quoteIdent(p.column!.databaseName)}`;
            return {
              name: p.name,
              c: col(expr),
              convert: valueConverter(p),
              json: jsonValueSql(p, expr),
            };
          });
        const idExpr = `${joinAlias}.${quoteIdent(target.idColumn)}`;
        const values: Array<[string, string | null]> = [
          ['@id', iriSql(target.path, `${idExpr}::text`)],
          ['@type', `${sqlString(target.shortName)}::text`],
          ...parts.map((p) => [p.name, p.json] as [string, string | null]),
        ];
        return {
          step: (row, out) => {
            const id = row[idCol];
            if (id == null) {
              out[name] = null;
              return;
            }
            const value: ApiRecord = { '@id': `${target.path}/${id}`, '@type': target.shortName };
            for (const p of parts) value[p.name] = p.convert(row[p.c]);
            out[name] = value;
          },
          json: values.every(([, v]) => v !== null)
            ? `CASE WHEN ${idExpr} IS NULL THEN NULL ELSE ${jsonObjectSql(values as Array<[string, string]>)} END`
            : null,
        };
      }
      case 'collection': {
        const expr = this.collectionExpression(resource, prop, alias);
        const c = col(expr);
        arrayColumns.push({ property: name, length: `cardinality(${expr})` });
        const registry = this.registry;
        const target = prop.target!;
        let base: string | undefined;
        return {
          step: (row, out) => {
            base ??= registry.get(target).path;
            const ids = (row[c] as string[] | null) ?? [];
            out[name] = ids.map((id) => `${base}/${id}`);
          },
          json: this.collectionExpression(resource, prop, alias, (id) =>
            iriSql(registry.get(target).path, id),
          ),
        };
      }
    }
  }

  /**
   * `ARRAY(SELECT ...)` of related ids for one-to-many and many-to-many relations, in id order;
   * `selected` turns the id column into what the array holds (an IRI for the json rendering).
   */
  private collectionExpression(
    resource: ResourceMeta,
    prop: PropertyMeta,
    alias: string,
    selected: (id: string) => string = (id) => id,
  ): string {
    const relation = prop.relation!;
    const own = `${alias}.${quoteIdent(resource.idColumn)}`;
    if (relation.isOneToMany) {
      const child = relation.inverseEntityMetadata;
      const fk = relation.inverseRelation!.joinColumns[0].databaseName;
      const childId = child.primaryColumns[0].databaseName;
      const id = `x.${quoteIdent(childId)}`;
      return `ARRAY(SELECT ${selected(id)} FROM ${quoteIdent(child.tableName)} x WHERE x.${quoteIdent(fk)} = ${own} ORDER BY ${id})`;
    }
    const junction = relation.junctionEntityMetadata!;
    const mine = relation.isOwning ? junction.ownerColumns[0] : junction.inverseColumns[0];
    const theirs = relation.isOwning ? junction.inverseColumns[0] : junction.ownerColumns[0];
    const id = `x.${quoteIdent(theirs.databaseName)}`;
    return `ARRAY(SELECT ${selected(id)} FROM ${quoteIdent(junction.tableName)} x WHERE x.${quoteIdent(mine.databaseName)} = ${own} ORDER BY ${id})`;
  }
}

function jsonArrayLength(expr: string): string {
  return `jsonb_array_length(CASE WHEN jsonb_typeof(${expr}) = 'array' THEN ${expr} ELSE '[]'::jsonb END)`;
}

/** The readable properties a view shows, in declaration order. */
export function shownProperties(resource: ResourceMeta, view: RecordView): PropertyMeta[] {
  return resource.properties.filter((p) => p.readable && (view === 'whole' || !p.itemOnly));
}

/** RFC 3339 with a numeric offset, as API Platform renders dates. */
export function formatDateTime(value: Date): string {
  // toISOString always ends in `.sssZ`; a slice costs a fraction of a regular expression, and
  // this runs for every date of every item rendered and every prediction written.
  return value.toISOString().slice(0, -5) + '+00:00';
}

function valueConverter(prop: PropertyMeta): (v: unknown) => unknown {
  switch (prop.type) {
    case 'datetime':
      return (v) =>
        v == null ? null : formatDateTime(v instanceof Date ? v : new Date(String(v)));
    case 'integer':
      return (v) => (v == null ? null : typeof v === 'number' ? v : Number(v));
    case 'number':
      return (v) => (v == null ? null : Number(v));
    case 'decimal':
      return (v) => (v == null ? null : String(v));
    case 'array':
      return (v) => (v == null ? (prop.nullable ? null : []) : v);
    default:
      return (v) => (v === undefined ? null : v);
  }
}
