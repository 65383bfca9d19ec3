import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { DELEGATED_REFUSAL, isWriteLevel, type AccessLevel } from '../src/access/access-level';
import { classSchema } from '../src/hydra/actions/action-schemas';
import type { ResourceMeta } from '../src/hydra/core/resource-meta';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { closeTestApp, createTestApp } from './support/app';
import { answerProblems, recordAnswers, type RecordedAnswer } from './support/openapi-responses';
import { JSON_LD, MERGE_PATCH } from './support/http';
import {
  createEveryResourceFor,
  declaredRoutes,
  paramKinds,
  sampleBody,
  walkableRoutes,
  type DeclaredRoute,
} from './support/route-walk';
import { createTenant, type Tenant } from './factories/tenant.factory';
import { delegatedGrant, joinTeam, setPassword } from './factories/identity.factory';

/**
 * Walks EVERY registered route with one caller per role of tenant A's team — owner, team
 * admin, member with full workspace access, read-only member — plus a member of another team
 * and an anonymous caller, on A's records of every kind. What each may do is derived from the
 * route's declared access: it fails on a route without a declaration, on any write that a
 * read-only member gets through, on any admin (or owner) operation a plain member (or admin)
 * gets through, on a protected route answering an anonymous caller, and on any 5xx. Last, the
 * owner's authority in the hands of a third-party application (an authorization-code token):
 * refused (403) exactly where the declarations say `delegated: false`, and those must cover
 * every route that manages the account (ACCOUNT_MANAGEMENT below).
 */
const OWNER_PASSWORD = 'role walk owner 123';

/**
 * Routes that manage the account itself: who is in a team and what they may see, the team's
 * settings and existence, the user, OAuth clients, credentials, billing. Whatever their level,
 * they must declare `delegated: false` (or a level that refuses third-party tokens): a new route
 * here that forgets it fails the walk.
 */
const ACCOUNT_MANAGEMENT: RegExp[] = [
  /^(POST|PUT|DELETE) \/team_members/,
  /^(PUT|DELETE) \/workspace_members\//,
  /^POST \/workspace_permissions_batch$/,
  /^(PUT|DELETE) \/teams\/:id$/,
  /^DELETE \/workspaces\/:id$/,
  /^(PUT|DELETE) \/users\//,
  /\/oauth_clients/,
  /\/credentials/,
  /^POST \/billing\//,
];

// A walk visits every route, each in several ways: minutes on a loaded machine, not 60 s.
jest.setTimeout(300_000);

describe('role walk: every route, every role, from the declarations', () => {
  let app: NestExpressApplication;
  /** Every answer of the walk, checked against the OpenAPI description last. */
  let answers: RecordedAnswer[] = [];
  let registry: ResourceRegistry;
  let a: Tenant;
  let other: Tenant;
  const tokens: Record<string, string | undefined> = {};
  let routes: DeclaredRoute[];
  let recordsOfA: Map<ResourceMeta, string>;

  beforeAll(async () => {
    app = await createTestApp();
    answers = recordAnswers(app);
    registry = app.get(ResourceRegistry);
    a = await createTenant(app, { workspaceTitle: 'Role walk store' });
    other = await createTenant(app);
    recordsOfA = await createEveryResourceFor(app, registry, a);
    const admin = await joinTeam(app, a, 'admin');
    const member = await joinTeam(app, a, 'member', [a.workspaceId]);
    const reader = await joinTeam(app, a, 'member', [a.workspaceId]);
    await setPassword(app, a.userId, OWNER_PASSWORD);
    const delegated = await delegatedGrant(app, other, a, OWNER_PASSWORD);
    await app
      .get(DataSource)
      .query(`UPDATE workspace_member SET access_level = 'read' WHERE user_id = $1`, [
        reader.userId,
      ]);
    Object.assign(tokens, {
      owner: a.token,
      admin: admin.token,
      member: member.token,
      reader: reader.token,
      other: other.token,
      delegated: delegated.accessToken,
      anonymous: undefined,
    });
    routes = declaredRoutes(app);
  }, 180_000);
  afterAll(async () => {
    // The consent page's sign-in spent this address's account budget: leave it to other specs.
    await app?.get(DataSource).query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
  });

  /** The route's path with A's records of the right kind in its parameters. */
  function pathFor(route: DeclaredRoute): string {
    const kinds = paramKinds(registry, route);
    return route.path.replace(/:([^/]+)/g, (_m, param: string) => {
      const kind = kinds.get(param);
      const id = kind ? recordsOfA.get(kind) : undefined;
      return encodeURIComponent(id ?? a.workspaceId);
    });
  }

  /** A plausible body: the resource's sample, or the action's input with A's records in it. */
  function bodyFor(route: DeclaredRoute): Record<string, unknown> {
    const resource = registry
      .all()
      .find((r) => r.path === route.path || route.path === `${r.path}/:id`);
    if (resource && !route.action) {
      const iriOf = (target: ResourceMeta) => {
        const id = recordsOfA.get(target);
        return id ? `${target.path}/${id}` : undefined;
      };
      return sampleBody(registry, resource, route.method === 'POST' ? 'post' : 'put', iriOf) ?? {};
    }
    const input = route.action?.input;
    if (!input) return {};
    const schema = classSchema(input) as { properties?: Record<string, { type?: string }> };
    const body: Record<string, unknown> = {};
    const shipment = registry.all().find((r) => r.path === '/shipments')!;
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      if (/^workspace(Id)?$/.test(name)) body[name] = `/workspaces/${a.workspaceId}`;
      else if (/^team(Id)?$/.test(name)) body[name] = `/teams/${a.teamId}`;
      else if (name === 'entity') body[name] = 'shipments';
      else if (prop.type === 'array') body[name] = [`/shipments/${recordsOfA.get(shipment)}`];
      else if (/^(target|shipment)$/.test(name))
        body[name] = `/shipments/${recordsOfA.get(shipment)}`;
      else if (prop.type === 'string') body[name] = 'walk';
      else if (prop.type === 'integer' || prop.type === 'number') body[name] = 1;
      else if (prop.type === 'boolean') body[name] = true;
    }
    return body;
  }

  function send(route: DeclaredRoute, token: string | undefined) {
    const m = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const test = request(app.getHttpServer())[m](pathFor(route)).set('Accept', JSON_LD);
    if (token) test.set('Authorization', `Bearer ${token}`);
    if (['post', 'put', 'patch'].includes(m)) {
      test.set('Content-Type', m === 'patch' ? MERGE_PATCH : JSON_LD).send(bodyFor(route));
    }
    return test;
  }

  it('every route Express serves is declared, with an access level', () => {
    const declared = new Set(routes.map((r) => `${r.method} ${r.path}`));
    const undeclared = walkableRoutes(app)
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => !declared.has(r))
      // Swagger UI's own assets and documents, mounted on Express by @nestjs/swagger.
      .filter((r) => !/^GET \/docs/.test(r));
    expect(undeclared).toEqual([]);
    expect(routes.filter((r) => !r.access)).toEqual([]);
    expect(routes.length).toBeGreaterThan(150);
  });

  /** Routes whose declared level the role lacks in A's team, so nothing may succeed. */
  const forbidden: Record<string, (level: AccessLevel) => boolean> = {
    reader: (level) => isWriteLevel(level),
    member: (level) => level === 'team:admin' || level === 'team:owner',
    admin: (level) => level === 'team:owner',
  };

  it.each(Object.keys(forbidden))(
    '%s: nothing beyond the role succeeds, and no route fails',
    async (role) => {
      const failures: string[] = [];
      let walked = 0;
      for (const route of routes) {
        if (!forbidden[role](route.access.level)) continue;
        walked++;
        const res = await send(route, tokens[role]);
        const label = `${route.method} ${route.path} (${route.access.level}) -> ${res.status}`;
        if (res.status < 400) failures.push(`${label}: succeeded for ${role}`);
        else if (res.status >= 500) failures.push(`${label}: server error`);
      }
      expect(failures).toEqual([]);
      expect(walked).toBeGreaterThan(role === 'reader' ? 10 : 0);
    },
    300_000,
  );

  it('anonymous callers get 401 everywhere but on public routes', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const res = await send(route, undefined);
      const label = `${route.method} ${route.path} (${route.access.level}) -> ${res.status}`;
      if (res.status >= 500) failures.push(`${label}: server error`);
      else if (route.access.level !== 'public' && res.status !== 401) failures.push(label);
      else if (res.status === 401) expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('a member of another team succeeds on none of A’s records', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      if (route.access.level === 'public' || !route.path.includes(':')) continue;
      const kinds = paramKinds(registry, route);
      const params = [...route.path.matchAll(/:([^/]+)/g)].map((m) => m[1]);
      // Only routes whose every parameter is one of A's own (non-public) records.
      const own = params.every((p) => {
        const kind = kinds.get(p);
        return kind && kind.options.tenancy !== 'public' && recordsOfA.has(kind);
      });
      if (!own) continue;
      const res = await send(route, tokens.other);
      const label = `${route.method} ${pathFor(route)} (${route.path}) -> ${res.status}`;
      if (res.status >= 500) failures.push(`${label}: server error`);
      else if (![401, 403, 404].includes(res.status)) failures.push(label);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('the owner reaches every role-restricted route it declares (the walk is not vacuous)', async () => {
    const refused: string[] = [];
    for (const route of routes) {
      if (route.method !== 'GET' || route.access.level === 'public') continue;
      const res = await send(route, tokens.owner);
      if (res.status === 403) refused.push(`${route.method} ${route.path} -> 403`);
      if (res.status >= 500) refused.push(`${route.method} ${route.path} -> ${res.status}`);
    }
    expect(refused).toEqual([]);
  }, 300_000);

  // Last: an allowed route runs with the owner's authority (deletes included).
  it('a third-party token of the owner is refused exactly where the declarations say', async () => {
    const undeclared = routes
      .filter((r) => r.access.level !== 'public' && r.access.delegated)
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => ACCOUNT_MANAGEMENT.some((p) => p.test(r)));
    expect(undeclared).toEqual([]);

    const failures: string[] = [];
    let refused = 0;
    for (const route of routes) {
      if (route.access.level === 'public') continue;
      const res = await send(route, tokens.delegated);
      const label = `${route.method} ${route.path} (${route.access.level}, delegated: ${route.access.delegated}) -> ${res.status}`;
      if (res.status >= 500) failures.push(`${label}: server error`);
      else if (!route.access.delegated) {
        refused++;
        if (res.status !== 403 || res.body['hydra:description'] !== DELEGATED_REFUSAL)
          failures.push(`${label}: not refused`);
      } else if (res.status === 403 || res.status === 401) {
        // Declared allowed: the owner's token may do it, so must the owner's delegate.
        failures.push(`${label}: ${res.body['hydra:description']}`);
      }
    }
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(20);
  }, 300_000);

  it('answered everything as the OpenAPI description says: status, media type and schema', () => {
    expect(answers.length).toBeGreaterThan(100);
    expect(answerProblems(app, answers)).toEqual([]);
  });
});
