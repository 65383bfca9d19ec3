import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { PrincipalLoader } from '../src/access/principal-loader';
import type { Principal } from '../src/access/principal';
import { DataProvider } from '../src/hydra/collection/data-provider';
import type { ResourceMeta } from '../src/hydra/core/resource-meta';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { QueryParams } from '../src/hydra/core/query-params';
import { closeTestApp, createTestApp } from './support/app';
import { answerProblems, recordAnswers, type RecordedAnswer } from './support/openapi-responses';
import { api, JSON_LD, MERGE_PATCH } from './support/http';
import {
  createEveryResourceFor,
  isPublicRoute,
  paramKinds,
  RouteCase,
  sampleBody,
  walkableRoutes,
} from './support/route-walk';
import { createTenant, Tenant } from './factories/tenant.factory';
import { createClient, joinTeam } from './factories/identity.factory';

/**
 * Walks EVERY route the application registers (read from the Express router, so routes
 * added later are walked too) with a token of tenant B and the ids of tenant A's records,
 * and fails on anything but 401/403/404 — or, for routes without ids, on an answer that
 * carries one of A's ids. A's records are made generically: a POST of every resource with
 * a body derived from its declaration (references to A's records), then whatever A can see.
 */

// A walk visits every route, each in several ways: minutes on a loaded machine, not 60 s.
jest.setTimeout(300_000);

describe('tenancy walk: every route, tenant B against tenant A’s records', () => {
  let app: NestExpressApplication;
  /** Every answer of the walk, checked against the OpenAPI description last. */
  let answers: RecordedAnswer[] = [];
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
    answers = recordAnswers(app);
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
    await createEveryResourceFor(app, registry, a);
    // B has records of every kind too, so B's collections answer rows (B's, never A's).
    await createEveryResourceFor(app, registry, b);

    principalA = (await app.get(PrincipalLoader).forUser(a.userId))!;
    for (const resource of registry.all()) {
      if (resource.options.tenancy === 'public') continue;
      const ids = await visibleIds(resource, principalA);
      recordsOfA.set(resource, ids);
      ids.forEach((id) => secretsOfA.add(id.toLowerCase()));
    }
    secretsOfA.add(a.email.toLowerCase());
    secretsOfA.add('walk-invite@example.test');

    routes = walkableRoutes(app);
  }, 180_000);
  afterAll(() => closeTestApp(app));

  async function visibleIds(resource: ResourceMeta, principal: Principal): Promise<string[]> {
    const result = await data.list({
      resource,
      principal,
      params: QueryParams.fromUrl(`${resource.path}?itemsPerPage=20`),
    });
    return result.members.map((m) => String(m[resource.idProperty]));
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
      if (!isPublicRoute(route.path)) {
        unexpected.push(`${route.method} ${route.path} -> ${res.status}`);
      }
    }
    expect(unexpected).toEqual([]);
  });

  it('every protected route refuses tenant B on tenant A’s records and leaks none of them', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      if (isPublicRoute(route.path)) continue;
      const kinds = paramKinds(registry, route);
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
          ? (sampleBody(registry, resource, operation, (target) => {
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

  it('answered everything as the OpenAPI description says: status, media type and schema', () => {
    expect(answers.length).toBeGreaterThan(100);
    expect(answerProblems(app, answers)).toEqual([]);
  });
});
