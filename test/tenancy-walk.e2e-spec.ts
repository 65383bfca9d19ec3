import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { PrincipalLoader } from '../src/access/principal-loader';
import type { Principal } from '../src/access/principal';
import { DataProvider } from '../src/hydra/collection/data-provider';
import { RouteTable } from '../src/hydra/errors/route-table';
import { choicesOf } from '../src/hydra/validation/constraints';
import type { ResourceMeta } from '../src/hydra/metadata/resource-metadata';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { relationTarget } from '../src/hydra/metadata/search-variables';
import { QueryParams } from '../src/hydra/query/query-params';
import { closeTestApp, createTestApp } from './support/app';
import { api, JSON_LD, MERGE_PATCH } from './support/http';
import { createTenant, Tenant } from './factories/tenant.factory';
import { createClient, joinTeam } from './factories/identity.factory';

/**
 * Walks EVERY route the application registers (read from the Express router, so routes
 * added later are walked too) with a token of tenant B and the ids of tenant A's records,
 * and fails on anything but 401/403/404 — or, for routes without ids, on an answer that
 * carries one of A's ids. A's records are made generically: a POST of every resource with
 * a body derived from its declaration (references to A's records), then whatever A can see.
 */

/** Routes anyone may call: the spec's public areas and capability URLs. */
const PUBLIC_ROUTES = [
  /^\/$/,
  /^\/index\.jsonld$/,
  /^\/docs/,
  /^\/contexts\//,
  /^\/health/,
  /^\/public\//,
  /^\/security\//,
  /^\/oauth\//,
  // Capability URLs: the random key is the credential.
  /^\/media\/files\//,
  /^\/t\//,
  /^\/reviews\//,
  // Billing provider webhooks: authenticated by an HMAC signature of the body, not a token.
  /^\/billing\/billing_provider\/webhook$/,
  // Sign-up from the storefront app (like /security/signup).
  /^\/integration\/storefront\/register$/,
  // Server-to-server calls of the storefront and marketing apps: a shared secret header.
  /^\/integration-secure\//,
  // Test support: 404 to everyone unless ENABLE_TEST_FIXTURES=true, then a bearer token.
  /^\/test\/load-fixtures$/,
];

interface RouteCase {
  method: string;
  path: string;
}

type Kinds = Map<string, ResourceMeta>;

describe('tenancy walk: every route, tenant B against tenant A’s records', () => {
  let app: NestExpressApplication;
  let registry: ResourceRegistry;
  let data: DataProvider;
  let a: Tenant;
  let b: Tenant;
  let principalA: Principal;
  /** Resource -> ids of A's records of that kind. */
  const recordsOfA = new Map<ResourceMeta, string[]>();
  /** Every id and address of tenant A; none may reach B. */
  const secretsOfA = new Set<string>();
  let routes: RouteCase[];

  beforeAll(async () => {
    app = await createTestApp();
    registry = app.get(ResourceRegistry);
    data = app.get(DataProvider);
    a = await createTenant(app, { workspaceTitle: 'Tenant A store' });
    b = await createTenant(app, { workspaceTitle: 'Tenant B store' });

    // Records every tenant has: a second member with workspace access, an invitation, a client.
    await joinTeam(app, a, 'member', [a.workspaceId]);
    await api(app, { token: a.token })
      .post('/team_members', {
        team: `/teams/${a.teamId}`,
        invitedEmail: 'walk-invite@example.test',
      })
      .expect(201);
    await createClient(app, a, { name: 'A app', redirectUris: ['https://a.example/cb'] });
    await createEveryResourceFor(a);
    // B has records of every kind too, so B's collections answer rows (B's, never A's).
    await createEveryResourceFor(b);

    principalA = (await app.get(PrincipalLoader).forUser(a.userId))!;
    for (const resource of registry.all()) {
      if (resource.options.tenancy === 'public') continue;
      const ids = await visibleIds(resource, principalA);
      recordsOfA.set(resource, ids);
      ids.forEach((id) => secretsOfA.add(id.toLowerCase()));
    }
    secretsOfA.add(a.email.toLowerCase());
    secretsOfA.add('walk-invite@example.test');

    routes = new RouteTable(app)
      .all()
      .filter((r) => !r.path.includes('{') && !r.path.includes('*'))
      .filter((r) => !['HEAD', 'OPTIONS'].includes(r.method));
  }, 180_000);
  afterAll(() => closeTestApp(app));

  /**
   * POSTs each resource (a few rounds, so references to earlier ones resolve). A body starts
   * with the references and the choice-constrained properties, then learns from the 422:
   * blank ones get a sample value, rejected optional ones are dropped, and an `entity` /
   * `entityId` pair (notes and the like) points at one of the records made so far.
   */
  async function createEveryResourceFor(tenant: Tenant): Promise<void> {
    const created = new Map<ResourceMeta, string>();
    const byPath = (path: string) => registry.all().find((r) => r.path === path)!;
    created.set(byPath('/workspaces'), tenant.workspaceId);
    created.set(byPath('/teams'), tenant.teamId);
    created.set(byPath('/users'), tenant.userId);
    for (let round = 0; round < 3; round++) {
      for (const resource of registry.all()) {
        if (created.has(resource) || !resource.operations.has('post')) continue;
        if (resource.options.tenancy === 'public') continue;
        const body = sampleBody(resource, 'post', (target) => {
          const id = created.get(target);
          return id ? `${target.path}/${id}` : undefined;
        });
        if (body === null) continue;
        const tried = new Map<string, number>();
        for (let attempt = 0; attempt < 8; attempt++) {
          const res = await api(app, { token: tenant.token }).post(resource.path, body);
          if (res.status === 201) {
            created.set(resource, String(res.body[resource.idProperty]));
            break;
          }
          if (!repair(resource, body, res.status, res.body, created, tried)) break;
        }
      }
    }
  }

  /** Adjusts a rejected body; false when there is nothing left to try. */
  function repair(
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

  async function visibleIds(resource: ResourceMeta, principal: Principal): Promise<string[]> {
    const result = await data.list({
      resource,
      principal,
      params: QueryParams.fromUrl(`${resource.path}?itemsPerPage=20`),
    });
    return result.members.map((m) => String(m[resource.idProperty]));
  }

  /**
   * A body for `operation`: references to A's records and allowed values of choice
   * properties; null when a required reference has no record yet.
   */
  function sampleBody(
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
  function paramKinds(route: RouteCase): Kinds {
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

  function leaks(body: unknown): string[] {
    const text = JSON.stringify(body ?? '').toLowerCase();
    return [...secretsOfA].filter((secret) => text.includes(secret));
  }

  function send(method: string, path: string, token?: string, body?: unknown) {
    const agent = request(app.getHttpServer());
    const m = method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const test = agent[m](path).set('Accept', JSON_LD);
    if (token) test.set('Authorization', `Bearer ${token}`);
    if (['post', 'put', 'patch'].includes(m)) {
      test.set('Content-Type', m === 'patch' ? MERGE_PATCH : JSON_LD).send((body ?? {}) as object);
    }
    return test;
  }

  it('finds the routes and A’s records to walk', () => {
    expect(routes.length).toBeGreaterThan(40);
    for (const path of [
      '/workspaces',
      '/teams',
      '/team_members',
      '/workspace_members',
      '/oauth_clients',
    ]) {
      const resource = registry.all().find((r) => r.path === path)!;
      expect(recordsOfA.get(resource)?.length).toBeGreaterThan(0);
    }
    // B's own world is not empty either: collections answer B's records, not A's.
    expect(b.workspaceId).not.toBe(a.workspaceId);
  });

  it('only the public areas answer without a token', async () => {
    const unexpected: string[] = [];
    for (const route of routes) {
      const path = route.path.replace(/:[^/]+/g, a.workspaceId);
      const res = await send(route.method, path);
      if (res.status === 401) {
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        continue;
      }
      if (!PUBLIC_ROUTES.some((p) => p.test(route.path))) {
        unexpected.push(`${route.method} ${route.path} -> ${res.status}`);
      }
    }
    expect(unexpected).toEqual([]);
  });

  it('every protected route refuses tenant B on tenant A’s records and leaks none of them', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      if (PUBLIC_ROUTES.some((p) => p.test(route.path))) continue;
      const kinds = paramKinds(route);
      let fallback = false;
      const path = route.path.replace(/:([^/]+)/g, (_m, param: string) => {
        const kind = kinds.get(param);
        const ids = kind ? recordsOfA.get(kind) : undefined;
        if (kind?.options.tenancy === 'public') fallback = true;
        if (ids && ids.length > 0) return encodeURIComponent(ids[0]);
        fallback = true;
        return a.workspaceId;
      });
      const hasParams = route.path.includes(':');
      const resource = registry
        .all()
        .find((r) => r.path === route.path || route.path === `${r.path}/:id`);
      const operation = route.method === 'POST' ? 'post' : 'put';
      const body =
        resource && ['POST', 'PUT', 'PATCH'].includes(route.method)
          ? (sampleBody(resource, operation, (target) => {
              const ids = recordsOfA.get(target);
              return ids?.length ? `${target.path}/${ids[0]}` : undefined;
            }) ?? {})
          : {};
      const res = await send(route.method, path, b.token, body);
      const label = `${route.method} ${path} (${route.path}) -> ${res.status}`;
      if (res.status >= 500) {
        failures.push(`${label}: server error`);
      } else if (hasParams && !fallback) {
        if (![401, 403, 404].includes(res.status)) failures.push(`${label}: expected 401/403/404`);
      } else if (res.status < 300) {
        // A route without A's ids (or with ids of an unknown kind) may answer B's own data.
        const leaked = leaks(res.body);
        if (leaked.length) failures.push(`${label}: leaks ${leaked.join(', ')}`);
      } else if (hasParams && ![400, 401, 403, 404, 405, 409, 415, 422].includes(res.status)) {
        failures.push(`${label}: unexpected status`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('left every record of A as it was', async () => {
    const missing: string[] = [];
    for (const [resource, ids] of recordsOfA) {
      for (const id of ids) {
        if (!(await data.visible(resource, principalA, id))) missing.push(`${resource.path}/${id}`);
      }
    }
    expect(missing).toEqual([]);
    const ws = await api(app, { token: a.token }).get(`/workspaces/${a.workspaceId}`).expect(200);
    expect(ws.body.title).toBe('Tenant A store');
  });
});

/** A plausible value for a property, from its name and type. */
function sampleValue(name: string, type: string): unknown {
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
