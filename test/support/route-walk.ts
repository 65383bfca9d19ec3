import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ACCESS, type AccessDeclaration } from '../../src/access/access.decorator';
import { ACTION, type ActionDeclaration } from '../../src/hydra/actions/action-declaration';
import { randomBytes } from 'node:crypto';
import { RouteTable } from '../../src/hydra/errors/route-table';
import type { ResourceMeta } from '../../src/hydra/core/resource-meta';
import type { ResourceRegistry } from '../../src/hydra/metadata/resource-registry';
import { relationTarget } from '../../src/hydra/metadata/search-variables';
import { choicesOf } from '../../src/hydra/validation/constraints';
import type { Tenant } from '../factories/tenant.factory';
import { api } from './http';

/**
 * What the route walks share (test/tenancy-walk.e2e-spec.ts, test/bad-input-walk.e2e-spec.ts):
 * the registered routes, which of them are public, which resource each `:param` stands for,
 * and records of every kind made generically from the resource declarations.
 */

/** Routes anyone may call: the spec's public areas and capability URLs. */
export const PUBLIC_ROUTES = [
  /^\/$/,
  /^\/index\.jsonld$/,
  /^\/docs/,
  /^\/contexts\//,
  /^\/health/,
  // What browsers and crawlers ask every site for (README "API conventions").
  /^\/(robots\.txt|favicon\.ico)$/,
  /^\/public\//,
  /^\/security\//,
  /^\/oauth\//,
  // Capability URLs: the random key is the credential.
  /^\/media\/files\//,
  /^\/t\//,
  // A tracking page's home: public like the page, searches prove knowledge of a parcel.
  /^\/track\//,
  /^\/reviews\//,
  // Billing provider webhooks: authenticated by an HMAC signature of the body, not a token.
  /^\/billing\/billing_provider\/webhook$/,
  // The storefront app's charge webhooks (signed the same way), and the merchant's browser
  // back from a charge's confirmation (the checkout and its charge id are the credential).
  /^\/billing\/storefront\/(webhook|return)$/,
  // Sign-up from the storefront app (like /security/signup).
  /^\/integration\/storefront\/register$/,
  // Server-to-server calls of the storefront and marketing apps: a shared secret header.
  /^\/integration-secure\//,
  // Test support: 404 to everyone unless ENABLE_TEST_FIXTURES=true, then a bearer token.
  /^\/test\/load-fixtures$/,
];

export const isPublicRoute = (path: string): boolean => PUBLIC_ROUTES.some((p) => p.test(path));

export interface RouteCase {
  method: string;
  path: string;
}

export type Kinds = Map<string, ResourceMeta>;

/** Every registered route but the catch-alls, HEAD and OPTIONS. */
export function walkableRoutes(app: INestApplication): RouteCase[] {
  return new RouteTable(app)
    .all()
    .filter((r) => !r.path.includes('{') && !r.path.includes('*'))
    .filter((r) => !['HEAD', 'OPTIONS'].includes(r.method));
}

/**
 * POSTs each resource (a few rounds, so references to earlier ones resolve). A body starts
 * with the references and the choice-constrained properties, then learns from the 422:
 * blank ones get a sample value, rejected optional ones are dropped, and an `entity` /
 * `entityId` pair (notes and the like) points at one of the records made so far.
 * Returns the id made (or known) per resource.
 */
export async function createEveryResourceFor(
  app: INestApplication,
  registry: ResourceRegistry,
  tenant: Tenant,
  /** Records the tenant already has (made with the factories): not made again. */
  known: Map<ResourceMeta, string> = new Map(),
  /** Filled with the body each record was made with. */
  bodies?: Map<ResourceMeta, Record<string, unknown>>,
): Promise<Map<ResourceMeta, string>> {
  const created = new Map<ResourceMeta, string>(known);
  const byPath = (path: string) => registry.all().find((r) => r.path === path)!;
  created.set(byPath('/workspaces'), tenant.workspaceId);
  created.set(byPath('/teams'), tenant.teamId);
  created.set(byPath('/users'), tenant.userId);
  for (let round = 0; round < 3; round++) {
    for (const resource of registry.all()) {
      if (created.has(resource) || !resource.operations.has('post')) continue;
      if (resource.options.tenancy === 'public') continue;
      const body = sampleBody(registry, resource, 'post', (target) => {
        const id = created.get(target);
        return id ? `${target.path}/${id}` : undefined;
      });
      if (body === null) continue;
      const tried = new Map<string, number>();
      for (let attempt = 0; attempt < 8; attempt++) {
        const res = await api(app, { token: tenant.token }).post(resource.path, body);
        if (res.status === 201) {
          created.set(resource, String(res.body[resource.idProperty]));
          bodies?.set(resource, structuredClone(body));
          break;
        }
        if (!repair(registry, resource, body, res.status, res.body, created, tried)) break;
      }
    }
  }
  return created;
}

/** Adjusts a rejected body; false when there is nothing left to try. */
function repair(
  registry: ResourceRegistry,
  resource: ResourceMeta,
  body: Record<string, unknown>,
  status: number,
  answer: Record<string, unknown>,
  created: Map<ResourceMeta, string>,
  tried: Map<string, number>,
): boolean {
  let changed = false;
  const collections = [...created.keys()]
    .filter((r) => !['/users', '/teams', '/workspaces'].includes(r.path))
    .map((r) => r.path.slice(1));
  const violations = (answer.violations ?? []) as Array<{
    propertyPath: string;
    message: string;
  }>;
  if (status === 422) {
    for (const v of violations) {
      const name = v.propertyPath.split(/[.[]/)[0];
      const prop = resource.byName.get(name);
      if (!prop || !prop.writable.has('post')) continue;
      const attempts = tried.get(name) ?? 0;
      tried.set(name, attempts + 1);
      if (name === 'entity' && attempts < collections.length) {
        // A record's collection name, and its id in the companion `entityId`.
        body.entity = collections[attempts];
        const target = registry.all().find((r) => r.path === `/${collections[attempts]}`)!;
        if (resource.byName.has('entityId')) body.entityId = created.get(target);
        changed = true;
      } else if (/should not be (blank|null)/.test(v.message) && body[name] == null) {
        body[name] = sampleValue(name, prop.type);
        changed = true;
      } else if (name in body && prop.kind !== 'reference' && name !== 'entityId') {
        delete body[name];
        changed = true;
      }
    }
  } else if (status === 400) {
    const attribute = /"([\w.]+)" attribute/.exec(String(answer['hydra:description'] ?? ''));
    const name = attribute?.[1].split('.')[0];
    if (name && name in body) {
      delete body[name];
      changed = true;
    }
  }
  return changed;
}

/**
 * A body for `operation`: references (IRIs from `iriOf`) and allowed values of choice
 * properties; null when a required reference has no record yet.
 */
export function sampleBody(
  registry: ResourceRegistry,
  resource: ResourceMeta,
  operation: 'post' | 'put',
  iriOf: (target: ResourceMeta) => string | undefined,
): Record<string, unknown> | null {
  const body: Record<string, unknown> = {};
  for (const prop of resource.properties) {
    if (!prop.writable.has(operation)) continue;
    if (prop.kind === 'reference') {
      const target = registry.all().find((r) => r.target === prop.target);
      const iri = target ? iriOf(target) : undefined;
      if (iri) body[prop.name] = iri;
      else if (!prop.nullable) return null;
    } else if (prop.kind === 'column') {
      const choices = choicesOf(resource.target, prop.name);
      if (choices?.length) body[prop.name] = choices[0];
    }
  }
  return body;
}

/** Which resource each `:param` of a route stands for; undefined: not a known kind. */
export function paramKinds(registry: ResourceRegistry, route: RouteCase): Kinds {
  const kinds: Kinds = new Map();
  const nestedOwner = registry
    .all()
    .flatMap((r) => (r.options.nested ?? []).map((n) => ({ r, n })))
    .find(({ n }) => n.path === route.path);
  if (nestedOwner) {
    for (const [param, path] of Object.entries(nestedOwner.n.params)) {
      const target = relationTarget(registry, nestedOwner.r, path);
      if (target) kinds.set(param, target);
    }
  }
  const segments = route.path.split('/');
  segments.forEach((segment, i) => {
    if (!segment.startsWith(':')) return;
    const param = segment.slice(1);
    if (kinds.has(param)) return;
    const prefix = segments.slice(0, i).join('/');
    const resource = registry
      .all()
      .filter((r) => prefix === r.path || prefix.endsWith(r.path))
      .sort((x, y) => y.path.length - x.path.length)[0];
    if (resource) kinds.set(param, resource);
  });
  return kinds;
}

/** A plausible value for a property, from its name and type. */
export function sampleValue(name: string, type: string): unknown {
  const n = name.toLowerCase();
  const tag = randomBytes(4).toString('hex');
  switch (type) {
    case 'integer':
      return 1;
    case 'number':
      return 1;
    case 'decimal':
      return '1.00';
    case 'boolean':
      return false;
    case 'datetime':
      return new Date(Date.now() + 86_400_000).toISOString();
    case 'array':
      return [];
    case 'object':
      return {};
  }
  if (n.includes('email')) return `walk-${tag}@example.test`;
  if (n.includes('trackingnumber')) return `TM200${tag.toUpperCase()}TM`;
  if (/url|uri|link|website/.test(n)) return `https://example.test/${tag}`;
  if (n.includes('country')) return 'US';
  if (n.includes('currency')) return 'USD';
  if (n.includes('phone')) return '+14155552671';
  if (n.includes('color') || n.includes('colour')) return '#336699';
  if (n.includes('locale') || n.includes('language')) return 'en';
  if (n.includes('timezone')) return 'UTC';
  if (/code|number|sku/.test(n)) return `WALK${tag.toUpperCase()}`;
  // Lower-case letters and digits pass most patterns (slugs, subdomains, codes).
  return `walk${tag}`;
}

/** A route with the access it declares (read from the controllers, like Nest's router). */
export interface DeclaredRoute extends RouteCase {
  access: AccessDeclaration;
  /** The `@Action` declaration, for actions. */
  action?: ActionDeclaration;
}

/**
 * Every controller route with its access declaration; a route Express has but no controller
 * declares (none should exist, start-up refuses them) is absent, so walks compare the two.
 */
export function declaredRoutes(app: INestApplication): DeclaredRoute[] {
  const discovery = app.get(DiscoveryService);
  const reflector = app.get(Reflector);
  const routes: DeclaredRoute[] = [];
  for (const wrapper of discovery.getControllers()) {
    const instance = wrapper.instance as object | undefined;
    if (!instance) continue;
    const type = instance.constructor;
    const prefix = normalizePaths(Reflect.getMetadata(PATH_METADATA, type))[0] ?? '';
    const proto = Object.getPrototypeOf(instance) as Record<string, Function>;
    for (const name of new MetadataScanner().getAllMethodNames(proto)) {
      const handler = proto[name];
      const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (paths === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const access = reflector.getAllAndOverride<AccessDeclaration>(ACCESS, [handler, type]);
      const action = Reflect.getMetadata(ACTION, handler) as ActionDeclaration | undefined;
      for (const path of normalizePaths(paths)) {
        const full = `/${[prefix, path].filter(Boolean).join('/')}`.replace(/\/+/g, '/');
        routes.push({ method, path: full === '/' ? '/' : full.replace(/\/$/, ''), access, action });
      }
    }
  }
  return routes;
}

function normalizePaths(paths: string | string[] | undefined): string[] {
  if (paths === undefined) return [];
  return (Array.isArray(paths) ? paths : [paths]).map((p) => p.replace(/^\/+|\/+$/g, ''));
}
