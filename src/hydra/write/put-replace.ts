import type { PropertyMeta, ResourceMeta } from '../core/resource-meta';

/**
 * PUT as a replacement (`@ApiResource({ replaceOnPut: true })`): before the body is applied to
 * the stored entity, every attribute writable on PUT that the body leaves out goes back to the
 * value a POST without it would store, and an embedded object the body gives starts empty so
 * the members it leaves out are reset too instead of keeping their stored values.
 * POST-only and read-only attributes are not touched. The write then runs the same
 * denormalization and validation as a POST, in the same transaction: a 400 or 422 changes
 * nothing.
 */
export function resetOmittedOnPut(
  resource: ResourceMeta,
  entity: Record<string, any>,
  body: unknown,
): void {
  // A body that is not an object is refused by the denormalizer (400).
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  for (const prop of resource.properties) {
    if (!prop.writable.has('put')) continue;
    if (!Object.prototype.hasOwnProperty.call(body, prop.name)) {
      const value = defaultValue(prop);
      if (value !== undefined) entity[prop.name] = value;
    } else if (prop.kind === 'embedded') {
      entity[prop.name] = defaultValue(prop);
    }
  }
}

/**
 * The value a POST stores when the body leaves the property out: the column's default
 * (literal or simple SQL literal), null without one (a required property then fails its
 * NotBlank as on POST), `[]` for to-many references and array columns that cannot be null,
 * an embedded object of its members' defaults. Undefined for a default the layer cannot
 * evaluate (an SQL expression such as `gen_random_uuid()`): the stored value is kept.
 */
export function defaultValue(prop: PropertyMeta): unknown {
  switch (prop.kind) {
    case 'collection':
      return [];
    case 'reference':
    case 'object':
      return null;
    case 'embedded': {
      const Type = prop.embeddedType as new () => Record<string, unknown>;
      const value = new Type();
      for (const child of prop.children ?? []) value[child.name] = defaultValue(child);
      return value;
    }
    case 'column':
      return columnDefault(prop);
    default:
      return undefined;
  }
}

function columnDefault(prop: PropertyMeta): unknown {
  const declared: unknown = prop.column?.default;
  if (declared === undefined || declared === null) {
    return prop.column?.isArray && !prop.nullable ? [] : null;
  }
  if (typeof declared !== 'function') return fromLiteral(prop, declared);
  const sql = String((declared as () => unknown)()).trim();
  const quoted = /^'((?:[^']|'')*)'(?:::[\w ]+(?:\[\])?)?$/s.exec(sql);
  if (quoted) return fromLiteral(prop, quoted[1].replace(/''/g, "'"));
  if (/^(now\(\)|current_timestamp)$/i.test(sql)) return new Date();
  if (/^(true|false|-?\d+(\.\d+)?)$/i.test(sql)) return fromLiteral(prop, sql.toLowerCase());
  return undefined;
}

/** A default written as a literal (`true`, `0`, `'{}'`, `'[]'::jsonb`) as the API value. */
function fromLiteral(prop: PropertyMeta, literal: unknown): unknown {
  if (prop.column?.isArray) {
    return typeof literal === 'string' ? postgresArray(literal, prop.items) : literal;
  }
  switch (prop.type) {
    case 'boolean':
      return literal === true || literal === 'true';
    case 'integer':
    case 'number':
      return Number(literal);
    case 'decimal':
      return String(literal);
    case 'datetime':
      return new Date(String(literal));
    case 'object':
    case 'array':
      if (typeof literal !== 'string') return literal;
      try {
        return JSON.parse(literal);
      } catch {
        return literal;
      }
    default:
      return literal;
  }
}

/** `{}` -> [], `{a,"b c"}` -> ['a', 'b c'] (the simple literals used as column defaults). */
function postgresArray(literal: string, items: PropertyMeta['items']): unknown[] {
  const inner = literal.trim().replace(/^\{/, '').replace(/\}$/, '').trim();
  if (inner === '') return [];
  return inner.split(',').map((raw) => {
    const value = raw.trim().replace(/^"(.*)"$/s, '$1');
    return items === 'integer' || items === 'number' ? Number(value) : value;
  });
}
