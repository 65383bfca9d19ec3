import type { PropertyMeta, ResourceLookup, ResourceMeta } from '../core/resource-meta';
import { classSchema } from '../actions/action-schemas';
import { allowOpenMap } from '../actions/open-maps';
import type { ResourceRegistry } from '../metadata/resource-registry';
import { searchVariables } from '../metadata/search-variables';
import type { WriteOperation } from '../core/declaration';
import { resourceAccess, resourceDelegation } from '../metadata/resource-access';
import { declaredWrite } from './write-contract';

type Schema = Record<string, unknown>;
type Operation = Record<string, unknown>;

const COLLECTION_FORMATS = ['application/ld+json', 'application/json', 'text/csv', 'text/html'];

/** `:id` -> `{id}` */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** A property's value: `owner` names open maps (`Shipment.customFields`), `lookup` embedded records. */
function valueSchema(p: PropertyMeta, owner: string, lookup: ResourceLookup): Schema {
  switch (p.kind) {
    case 'reference':
      return { type: 'string', format: 'iri-reference', nullable: p.nullable };
    case 'collection':
      return { type: 'array', items: { type: 'string', format: 'iri-reference' } };
    case 'embedded':
      return {
        type: 'object',
        nullable: true,
        properties: Object.fromEntries(
          (p.children ?? []).map((c) => [c.name, valueSchema(c, owner, lookup)]),
        ),
      };
    case 'object':
      return { ...embeddedSchema(p, lookup), nullable: p.nullable };
    default:
      break;
  }
  const base: Schema = (() => {
    switch (p.type) {
      case 'integer':
        return { type: 'integer' };
      case 'number':
        return { type: 'number' };
      case 'decimal':
        return { type: 'string', format: 'decimal' };
      case 'boolean':
        return { type: 'boolean' };
      case 'datetime':
        return { type: 'string', format: 'date-time' };
      case 'array':
        return { type: 'array', items: { type: p.items === 'integer' ? 'integer' : 'string' } };
      case 'object':
        return objectSchema(p, `${owner}.${p.name}`);
      default:
        return p.isUuid ? { type: 'string', format: 'uuid' } : { type: 'string' };
    }
  })();
  if (p.nullable) base.nullable = true;
  if (p.options.description) base.description = p.options.description;
  return base;
}

/** A JSON value: its class's schema, or an open map OPEN_MAPS allows. */
function objectSchema(p: PropertyMeta, key: string): Schema {
  if (p.options.of) return { ...classSchema(p.options.of()), type: 'object' };
  allowOpenMap(key);
  return { type: 'object', additionalProperties: true };
}

/** A related record embedded (`embed: true`): the members it shows (record-reader.ts). */
function embeddedSchema(p: PropertyMeta, lookup: ResourceLookup): Schema {
  const target = lookup.get(p.target!);
  const shown = p.options.embedProperties;
  const members = target.properties
    .filter((m) => m.readable && (m.kind === 'column' || (shown && m.kind === 'computed')))
    .filter((m) => !shown || shown.includes(m.name));
  return {
    type: 'object',
    properties: Object.fromEntries(
      members.map((m) => [m.name, valueSchema(m, target.shortName, lookup)]),
    ),
  };
}

function readSchema(r: ResourceMeta, lookup: ResourceLookup): Schema {
  const properties: Schema = {};
  for (const p of r.properties) {
    if (!p.readable) continue;
    const schema = valueSchema(p, r.shortName, lookup);
    if (p.itemOnly) {
      const note = `Shown in the collection ${r.path} only with \`groups[]=${r.itemGroup}\`.`;
      schema.description = schema.description ? `${schema.description}. ${note}` : note;
    }
    properties[p.name] = {
      ...schema,
      ...(p.writable.size === 0 ? { readOnly: true } : {}),
    };
  }
  return { type: 'object', description: r.options.description, properties };
}

/**
 * An object value as a body gives it: its members are optional (the service fills the ones
 * left out, as dropshipperSettings and builder), whatever the answer always shows.
 */
function membersOptional(schema: Schema): Schema {
  if (Array.isArray(schema)) return schema.map((s) => membersOptional(s as Schema)) as never;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' && Array.isArray(value)) continue;
    out[key] = value && typeof value === 'object' ? membersOptional(value as Schema) : value;
  }
  return out;
}

function writeSchema(r: ResourceMeta, op: WriteOperation, lookup: ResourceLookup): Schema {
  const properties: Schema = {};
  for (const p of r.properties) {
    if (!p.writable.has(op)) continue;
    const schema = membersOptional(valueSchema(p, r.shortName, lookup));
    const objects = p.options.acceptObjectOn?.includes(op);
    properties[p.name] = !objects
      ? schema
      : p.kind === 'collection'
        ? { type: 'array', items: { oneOf: [(schema as Schema).items, { type: 'object' }] } }
        : { oneOf: [schema, { type: 'object' }] };
  }
  for (const [name, schema] of Object.entries(r.options.writeOnly?.[op] ?? {}))
    properties[name] = { ...schema, writeOnly: true };
  // What the create refuses to leave out (422), from the same constraints (hydra:required).
  const required =
    op === 'post'
      ? [...declaredWrite(r, op)].filter(([, a]) => a.required).map(([name]) => name)
      : [];
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

const errorResponses = (codes: number[]): Record<string, unknown> =>
  Object.fromEntries(
    codes.map((c) => [
      String(c),
      {
        description:
          {
            400: 'Invalid input',
            401: 'Missing or invalid bearer token',
            404: 'Resource not found',
            406: 'Not acceptable',
            415: 'Unsupported media type',
            422: 'Unprocessable entity',
          }[c] ?? 'Error',
      },
    ]),
  );

function jsonContent(ref: string): Record<string, unknown> {
  return {
    'application/ld+json': { schema: { $ref: ref } },
    'application/json': { schema: { $ref: ref } },
  };
}

/** A record answered in the negotiated format (Responder.item: all of them). */
function itemContent(ref: string): Record<string, unknown> {
  return {
    ...jsonContent(ref),
    'text/csv': { schema: { type: 'string' } },
    'text/html': { schema: { type: 'string' } },
  };
}

/** OpenAPI 3 paths and schemas of every declared resource. */
export function resourcesOpenApi(registry: ResourceRegistry): {
  paths: Record<string, Record<string, Operation>>;
  schemas: Record<string, Schema>;
} {
  const paths: Record<string, Record<string, Operation>> = {};
  const schemas: Record<string, Schema> = {};
  const add = (path: string, method: string, op: Operation) => {
    (paths[openApiPath(path)] ??= {})[method] = op;
  };
  for (const r of registry.all()) {
    const name = r.shortName;
    schemas[name] = readSchema(r, registry);
    // Also for actions that write the resource through its pipeline (`POST /oauth_clients`).
    for (const op of ['post', 'put'] as const)
      if (r.operations.has(op) || r.properties.some((p) => p.writable.has(op)))
        schemas[`${name}-${op}`] = writeSchema(r, op, registry);
    const itemRef = `#/components/schemas/${name}`;
    const security =
      r.options.tenancy === 'public' && !r.options.requireToken ? [] : [{ bearer: [] }];
    const tags = [name];
    const pageParams = [
      {
        name: 'page',
        in: 'query',
        required: false,
        schema: { type: 'integer', default: 1, minimum: 1 },
        description: 'The collection page number',
      },
      {
        name: 'itemsPerPage',
        in: 'query',
        required: false,
        schema: { type: 'integer', default: 30, minimum: 0, maximum: r.maxItemsPerPage },
        description: 'The number of items per page',
      },
    ];
    const filterParams = searchVariables(registry, r).map((v) => ({
      name: v.variable,
      in: 'query',
      required: v.required,
      schema: v.schema,
      ...(v.description ? { description: v.description } : {}),
    }));
    const listOp = (pathParams: string[], maxItemsPerPage = r.maxItemsPerPage): Operation => ({
      tags,
      security,
      summary: `Retrieves the collection of ${name} resources.`,
      description: `Retrieves a page of ${name} resources visible to the caller, filtered by the query parameters and ordered by \`order[...]\`; JSON-LD adds hydra:totalItems, hydra:view and hydra:search. ${r.options.description ?? ''}`,
      'x-access': resourceAccess(r.options, 'list'),
      'x-delegated': resourceDelegation(r.options, 'list'),
      operationId: `list${name}${pathParams.length ? 'Nested' + pathParams.length : ''}`,
      parameters: [
        ...pathParams.map((p) => ({
          name: p,
          in: 'path',
          required: true,
          schema: { type: 'string' },
        })),
        ...pageParams.map((p) =>
          p.name === 'itemsPerPage'
            ? { ...p, schema: { ...p.schema, maximum: maxItemsPerPage } }
            : p,
        ),
        ...filterParams,
      ],
      responses: {
        200: {
          description: `${name} collection`,
          content: Object.fromEntries(
            COLLECTION_FORMATS.map((f) => [
              f,
              {
                schema:
                  f === 'application/ld+json'
                    ? {
                        type: 'object',
                        properties: {
                          'hydra:member': { type: 'array', items: { $ref: itemRef } },
                          'hydra:totalItems': { type: 'integer', minimum: 0 },
                          'hydra:view': { type: 'object' },
                          'hydra:search': { type: 'object' },
                        },
                        required: ['hydra:member'],
                      }
                    : f === 'application/json'
                      ? { type: 'array', items: { $ref: itemRef } }
                      : { type: 'string' },
              },
            ]),
          ),
        },
        ...errorResponses([400, 401, 404, 406]),
      },
    });
    const idParam = {
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'string' },
      description: `${name} identifier`,
    };
    if (r.operations.has('list')) {
      add(r.path, 'get', listOp([]));
      r.options.nested?.forEach((n) =>
        add(n.path, 'get', listOp(Object.keys(n.params), n.maxItemsPerPage)),
      );
    }
    if (r.operations.has('post')) {
      add(r.path, 'post', {
        tags,
        security,
        summary: `Creates a ${name} resource.`,
        description: `Creates a ${name} resource from the body (IRIs for references) and answers it with 201 and its Location. ${r.options.description ?? ''}`,
        'x-access': resourceAccess(r.options, 'post'),
        'x-delegated': resourceDelegation(r.options, 'post'),
        operationId: `post${name}`,
        requestBody: { required: true, content: jsonContent(`#/components/schemas/${name}-post`) },
        responses: {
          201: { description: `${name} created`, content: itemContent(itemRef) },
          ...errorResponses([400, 401, 415, 422]),
        },
      });
    }
    const item = `${r.path}/:id`;
    if (r.operations.has('get')) {
      add(item, 'get', {
        tags,
        security,
        summary: `Retrieves a ${name} resource.`,
        description: `Retrieves one ${name} resource by its identifier. ${r.options.description ?? ''}`,
        'x-access': resourceAccess(r.options, 'get'),
        'x-delegated': resourceDelegation(r.options, 'get'),
        operationId: `get${name}`,
        parameters: [idParam],
        responses: {
          200: { description: `${name} resource`, content: itemContent(itemRef) },
          ...errorResponses([401, 404, 406]),
        },
      });
    }
    if (r.operations.has('put')) {
      add(item, 'put', {
        tags,
        security,
        summary: `Replaces the ${name} resource.`,
        description: `Updates the ${name} resource with the attributes the body gives${r.options.replaceOnPut ? ' (the others go back to their defaults)' : ''}. ${r.options.description ?? ''}`,
        'x-access': resourceAccess(r.options, 'put'),
        'x-delegated': resourceDelegation(r.options, 'put'),
        operationId: `put${name}`,
        parameters: [idParam],
        requestBody: { required: true, content: jsonContent(`#/components/schemas/${name}-put`) },
        responses: {
          200: { description: `${name} updated`, content: itemContent(itemRef) },
          ...errorResponses([400, 401, 404, 415, 422]),
        },
      });
    }
    if (r.operations.has('delete')) {
      add(item, 'delete', {
        tags,
        security,
        summary: `Removes the ${name} resource.`,
        description: `Deletes the ${name} resource. ${r.options.description ?? ''}`,
        'x-access': resourceAccess(r.options, 'delete'),
        'x-delegated': resourceDelegation(r.options, 'delete'),
        operationId: `delete${name}`,
        parameters: [idParam],
        responses: { 204: { description: `${name} deleted` }, ...errorResponses([401, 404]) },
      });
    }
  }
  return { paths, schemas };
}
