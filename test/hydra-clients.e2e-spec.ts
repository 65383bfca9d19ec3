import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { ResourceMeta } from '../src/hydra/core/resource-meta';
import { RouteTable } from '../src/hydra/errors/route-table';
import { ResourceRegistry } from '../src/hydra/metadata/resource-registry';
import { searchVariables } from '../src/hydra/metadata/search-variables';
import { closeTestApp, createTestApp, testAppUrl } from './support/app';
import { api } from './support/http';
import { createTenant, type Tenant } from './factories/tenant.factory';

const run = promisify(execFile);
const TOOLS = join(__dirname, 'support', 'hydra-tools.mjs');

interface ParsedField {
  name: string;
  reference: string | null;
  embedded: string | null;
  maxCardinality: number | null;
  required: boolean;
}
interface ParsedResource {
  name: string;
  url: string;
  id: string | null;
  title: string | null;
  fields: ParsedField[];
  readable: string[];
  writable: string[];
  operations: Array<{ type: string; method: string | null }>;
  parameters?: Array<{ variable: string }>;
}
interface ToolOutput {
  ok: boolean;
  error?: string;
  logged: string[];
  resources?: ParsedResource[];
  pages?: Array<{
    requested: string;
    status: number | null;
    collection: string | null;
    totalItems: number | null;
    members: string[];
    view: string | null;
    first: string | null;
    last: string | null;
    next: string | null;
  }>;
}

/** One of the Hydra tools (test/support/hydra-tools.mjs), run in plain Node as its users run it. */
async function tool(...args: string[]): Promise<ToolOutput> {
  const { stdout } = await run(process.execPath, [TOOLS, ...args], {
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  return JSON.parse(stdout) as ToolOutput;
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * The served documentation read by the tools that consume Hydra, as a new user would run them
 * against this server, unpatched: `@api-platform/api-doc-parser` (what API Platform Admin
 * builds its screens from) on /docs.jsonld and /docs.json, and alcaeus (an independent Hydra
 * client) paging a collection. What they read is compared with the resource declarations, the
 * routes the server has, and what POST refuses.
 */
describe('Hydra clients on the served documentation', () => {
  let app: NestExpressApplication;
  let base: string;
  let registry: ResourceRegistry;
  let tenant: Tenant;
  let hydra: ToolOutput;
  let openApi: Record<string, any>;

  beforeAll(async () => {
    app = await createTestApp({ listen: true });
    base = testAppUrl(app);
    registry = app.get(ResourceRegistry);
    tenant = await createTenant(app);
    hydra = await tool('hydra', base, tenant.token);
    openApi = (await api(base).json().get('/docs.json').expect(200)).body;
  }, 180_000);
  afterAll(() => closeTestApp(app));

  const listable = () => registry.all().filter((r) => r.operations.has('list'));
  const parsed = (r: ResourceMeta) => hydra.resources!.find((p) => p.url === `${base}${r.path}`)!;

  /** The routes at a resource's collection and item IRIs, as the parser names operations. */
  function routeOperations(r: ResourceMeta): string[] {
    const item = new RegExp(`^${r.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/:[A-Za-z0-9_]+$`);
    const types: string[] = [];
    for (const { method, path } of new RouteTable(app).all()) {
      if (path === r.path && method === 'GET') types.push('list:GET');
      else if (path === r.path && method === 'POST') types.push('create:POST');
      else if (!item.test(path)) continue;
      else if (method === 'GET') types.push('show:GET');
      else if (method === 'PUT' || method === 'PATCH') types.push(`edit:${method}`);
      else if (method === 'DELETE') types.push('delete:DELETE');
      else if (method === 'POST') types.push('create:POST');
    }
    return sorted(types);
  }

  /** The JSON schema of an OpenAPI operation's body (its `$ref` resolved). */
  function requestSchema(path: string, method: string): Record<string, any> | undefined {
    const operation = openApi.paths[path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[method];
    const content = operation?.requestBody?.content ?? {};
    const schema = (
      content['application/ld+json'] ??
      content['application/json'] ??
      content['multipart/form-data']
    )?.schema;
    if (!schema?.$ref) return schema;
    return openApi.components.schemas[String(schema.$ref).split('/').pop()!];
  }

  it('API Platform’s parser reads /docs.jsonld without an error: every collection, with its class', () => {
    expect(hydra.error).toBeUndefined();
    expect(hydra.ok).toBe(true);
    // The parser reports some problems on the console (a collection it cannot find a URL for).
    expect(hydra.logged).toEqual([]);
    expect(sorted(hydra.resources!.map((r) => r.url))).toEqual(
      sorted(listable().map((r) => `${base}${r.path}`)),
    );
    for (const r of listable()) {
      const resource = parsed(r);
      expect({ id: resource.id, title: resource.title }).toEqual({
        id: `${base}/docs.jsonld#${r.shortName}`,
        title: r.shortName,
      });
    }
  });

  it('reads the declared fields, references to the related collections, and every route’s operation', () => {
    const urlOf = (target: Function | undefined) => {
      const related = registry.all().find((x) => x.target === target);
      return related?.operations.has('list') ? `${base}${related.path}` : null;
    };
    for (const r of listable()) {
      const resource = parsed(r);
      const field = (name: string) => resource.fields.find((f) => f.name === name);
      expect([r.shortName, sorted(resource.readable)]).toEqual([
        r.shortName,
        sorted(r.properties.filter((p) => p.readable).map((p) => p.name)),
      ]);
      for (const p of r.properties.filter((x) => x.readable)) {
        const f = field(p.name)!;
        const target = urlOf(p.target);
        const expected =
          p.kind === 'reference' || p.kind === 'collection'
            ? {
                reference: target,
                embedded: null,
                maxCardinality: p.kind === 'reference' ? 1 : null,
              }
            : p.kind === 'object'
              ? { reference: null, embedded: target, maxCardinality: 1 }
              : { reference: null, embedded: null, maxCardinality: null };
        expect([`${r.shortName}.${p.name}`, f]).toEqual([
          `${r.shortName}.${p.name}`,
          expect.objectContaining(expected),
        ]);
      }
      expect([
        r.shortName,
        sorted(resource.operations.map((o) => `${o.type}:${o.method}`)),
      ]).toEqual([r.shortName, routeOperations(r)]);
      // Writable: what the bodies of its POST and PUT routes take, as /docs.json documents them.
      const bodies = [
        requestSchema(r.path, 'post'),
        ...new RouteTable(app)
          .all()
          .filter((x) => x.method === 'PUT' && x.path.startsWith(`${r.path}/:`))
          .map((x) => requestSchema(x.path, 'put')),
      ];
      const documented = bodies.flatMap((s) =>
        Object.entries((s?.properties ?? {}) as Record<string, any>)
          .filter(([, v]) => !v.readOnly)
          .map(([name]) => name),
      );
      expect([r.shortName, sorted(resource.writable)]).toEqual([r.shortName, sorted(documented)]);
    }
  });

  it('reads every collection’s filters (hydra:search) as API Platform Admin does', () => {
    for (const r of listable()) {
      const variables = searchVariables(registry, r);
      // A collection that needs a parameter (fields: `entity`) answers its bare URL with a 400.
      const expected = variables.some((v) => v.required)
        ? []
        : variables.filter((v) => v.property !== null).map((v) => v.variable);
      expect([r.shortName, (parsed(r).parameters ?? []).map((p) => p.variable)]).toEqual([
        r.shortName,
        expected,
      ]);
    }
  });

  it('flags exactly the fields POST refuses to leave out, as /docs.json does', async () => {
    let creatable = 0;
    for (const r of listable()) {
      const resource = parsed(r);
      if (!resource.operations.some((o) => o.type === 'create')) continue;
      creatable++;
      const flagged = sorted(resource.fields.filter((f) => f.required).map((f) => f.name));
      const post = request(base)
        .post(r.path)
        .set('Accept', 'application/ld+json')
        .set('Authorization', `Bearer ${tenant.token}`);
      // Uploads take a multipart body (the file is one of its parts); the others JSON.
      const res = requestSchema(r.path, 'post')?.properties?.file
        ? await post.field('fileOriginalName', 'empty.txt')
        : await post.set('Content-Type', 'application/ld+json').send({});
      expect([r.path, res.status]).toEqual([r.path, 422]);
      const refused = sorted(
        (res.body.violations as Array<{ propertyPath: string }>).map(
          (v) => v.propertyPath.split(/[.[]/)[0],
        ),
      );
      expect([r.path, flagged]).toEqual([r.path, refused]);
      expect([r.path, sorted(requestSchema(r.path, 'post')?.required ?? [])]).toEqual([
        r.path,
        refused,
      ]);
    }
    expect(creatable).toBeGreaterThan(15);
  });

  it('API Platform’s parser reads /docs.json (OpenAPI 3) without an error', async () => {
    const out = await tool('openapi', `${base}/docs.json`);
    expect(out.error).toBeUndefined();
    expect(out.logged).toEqual([]);
    // Its heuristic: a resource per `/things/{id}` path, named after `things`.
    for (const r of registry.all().filter((x) => x.operations.has('get'))) {
      const name = r.path.split('/').pop()!;
      const readable = r.properties.filter((p) => p.readable).map((p) => p.name);
      const resource = out.resources!.find(
        (p) => p.name === name && readable.every((f) => p.readable.includes(f)),
      );
      expect([r.shortName, resource?.operations.map((o) => o.type)]).toEqual([
        r.shortName,
        expect.arrayContaining(['show']),
      ]);
    }
  });

  it('alcaeus follows hydra:next from the first page to the last', async () => {
    const first = await api(base, { token: tenant.token })
      .get('/countries?itemsPerPage=100&order[code]=desc')
      .expect(200);
    const view = first.body['hydra:view'];
    const total = first.body['hydra:totalItems'] as number;
    expect(total).toBeGreaterThan(200);
    const out = await tool('follow', `${base}${view['hydra:first']}`, tenant.token);
    expect(out.error).toBeUndefined();
    const pages = out.pages!;
    expect(pages).toHaveLength(Math.ceil(total / 100));
    expect(pages.every((p) => p.status === 200 && p.collection === `${base}/countries`)).toBe(true);
    expect(pages.at(-1)!.view).toBe(`${base}${view['hydra:last']}`);
    expect(pages.at(-1)!.next).toBeNull();
    const members = pages.flatMap((p) => p.members);
    expect(new Set(members).size).toBe(total);
    expect(pages.every((p) => p.totalItems === total)).toBe(true);
    // RDF keeps no order: the members are a set, each page's a part of it.
    expect(members).toContain(`${base}${first.body['hydra:member'][0]['@id']}`);
  }, 120_000);
});
