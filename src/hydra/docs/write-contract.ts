import { classSchema } from '../actions/action-schemas';
import type { WriteOperation } from '../core/declaration';
import type { ResourceMeta } from '../core/resource-meta';
import { getResourceOptions } from '../metadata/decorators';
import { requiredOn } from '../validation/required';
import type { ResourceRoute } from './resource-routes';

type Schema = Record<string, unknown>;

/** An attribute a write of the resource reads from the body. */
export interface WrittenAttribute {
  required: boolean;
  /** The JSON schema of an attribute that is no property of the resource (an input DTO's). */
  schema?: Schema;
}

/**
 * The attributes a resource's declared write reads (`writable` on the operation, and its
 * `writeOnly` ones), and which of them it refuses to leave out (`requiredOn`).
 */
export function declaredWrite(
  resource: ResourceMeta,
  operation: WriteOperation,
): Map<string, WrittenAttribute> {
  const required = new Set(requiredOn(resource.target, operation));
  const attributes = new Map<string, WrittenAttribute>();
  for (const p of resource.properties)
    if (p.writable.has(operation)) attributes.set(p.name, { required: required.has(p.name) });
  for (const [name, schema] of Object.entries(resource.options.writeOnly?.[operation] ?? {}))
    attributes.set(name, { required: false, schema });
  return attributes;
}

/**
 * What a write route reads: the declaration's write, or the action's input: the resource class
 * itself (written through its pipeline: the declaration's POST or PUT), or a DTO (its
 * attributes and its required ones, as the action's OpenAPI body says).
 */
export function routeWrite(
  resource: ResourceMeta,
  route: ResourceRoute,
): Map<string, WrittenAttribute> {
  const operation: WriteOperation = route.method === 'POST' ? 'post' : 'put';
  const input = route.action?.input;
  if (!route.action || (input && getResourceOptions(input) && input === resource.target))
    return declaredWrite(resource, operation);
  if (!input) return new Map();
  const schema = classSchema(input) as { properties?: Record<string, Schema>; required?: string[] };
  const required = new Set(schema.required ?? []);
  return new Map(
    Object.entries(schema.properties ?? {}).map(([name, attribute]) => [
      name,
      {
        required: required.has(name),
        ...(resource.byName.has(name) ? {} : { schema: attribute }),
      },
    ]),
  );
}

/** The attributes the resource's create (POST on its collection) reads; empty without one. */
export function createWrite(
  resource: ResourceMeta,
  routes: readonly ResourceRoute[],
): Map<string, WrittenAttribute> {
  const post = routes.find((r) => r.scope === 'collection' && r.method === 'POST');
  return post ? routeWrite(resource, post) : new Map();
}

/**
 * Every attribute some write route of the resource reads (POST, PUT, PATCH), with the schema
 * of those that are no property of the resource.
 */
export function writtenAttributes(
  resource: ResourceMeta,
  routes: readonly ResourceRoute[],
): Map<string, Schema | undefined> {
  const all = new Map<string, Schema | undefined>();
  for (const route of routes) {
    const writes =
      (route.scope === 'collection' && route.method === 'POST') ||
      (route.scope === 'item' && (route.method === 'PUT' || route.method === 'PATCH'));
    if (!writes) continue;
    for (const [name, attribute] of routeWrite(resource, route))
      all.set(name, all.get(name) ?? attribute.schema);
  }
  return all;
}
