import type { OpenAPIObject } from '@nestjs/swagger';
import type { AccessLevel } from '../../access/access-level';
import type { ResourceRegistry } from '../metadata/resource-registry';
import { FORM_BODY_EXTENSION } from '../core/form';

type Operation = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Who may call an operation, in words, from its declared access level. */
export const ACCESS_WORDS: Record<AccessLevel, string> = {
  public: 'anyone, without a token',
  user: 'any signed-in user (bearer token), on their own records',
  'workspace:read': 'members of the workspace, read-only members included',
  'workspace:write': 'members of the workspace with write access (read-only members get 403)',
  'team:member': 'members of the team',
  'team:admin': 'owners and admins of the team (other members get 403)',
  'team:owner': 'owners of the team (admins and members get 403)',
};

/** Said of operations that refuse tokens granted to third-party applications. */
export const DELEGATED_WORDS =
  'Refused (403) to tokens granted to third-party applications through the authorization-code flow: only the account holder\u2019s own tokens (client credentials of their own OAuth client, or a sign-in) may call it';

const ERROR_WORDS: Record<number, string> = {
  400: 'Malformed input: a body that is not an object, an attribute of the wrong type.',
  401: 'Missing, expired or revoked bearer token.',
  403: 'The caller lacks the role this operation needs.',
  404: 'No such record, or one of another tenant.',
  406: 'None of the formats in Accept can be served.',
  415: 'The body media type is not supported.',
  409: 'A request with the same Idempotency-Key is still running; retry once it has answered.',
  412: 'The record changed since the representation If-Match names was read.',
  422: 'The input breaks a constraint (ConstraintViolationList).',
  429: 'Too many requests; retry after the Retry-After header.',
  500: 'An unexpected failure (a bug: it is logged with the request id).',
  503: 'The database is unavailable; retry after the Retry-After header.',
};

/**
 * Makes the served description a contract generators accept (Spectral's `spectral:oas`):
 * every path parameter declared, one path per route, unique operation ids, a description
 * saying who may call each operation and its errors, every error response with its schema,
 * global tags with descriptions, contact and servers.
 */
export function finishContract(
  doc: OpenAPIObject,
  registry: ResourceRegistry,
  serverUrl: string,
): OpenAPIObject {
  mergeEquivalentPaths(doc);
  const ids = new Set<string>();
  const tags = new Map<string, string>();
  for (const r of registry.all())
    tags.set(r.shortName, r.options.description ?? `${r.shortName} resources.`);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op) continue;
      declarePathParameters(path, op);
      placeFormBody(op);
      op.operationId = uniqueOperationId(op.operationId, method, path, ids);
      if (!op.tags?.length) op.tags = [tagOf(path, registry)];
      for (const tag of op.tags) if (!tags.has(tag)) tags.set(tag, `Operations on ${tag}.`);
      const access = (op['x-access'] ?? 'user') as AccessLevel;
      // Third-party tokens are refused: declared `delegated: false` (public routes take none).
      const refusesDelegated = access !== 'public' && op['x-delegated'] === false;
      addConventions(op, method, path, access, registry);
      addErrors(op, method, path, access, refusesDelegated);
      describe(op, access, refusesDelegated);
      if (access === 'public') op.security = [];
      delete op['x-scanned'];
    }
  }
  doc.tags = [...tags]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, description]) => ({
      name,
      description,
    }));
  doc.info.contact = { name: 'API support', url: `${serverUrl}/docs` };
  doc.servers = [{ url: serverUrl, description: 'This server' }];
  doc.components = {
    ...doc.components,
    schemas: { ...doc.components?.schemas, ...ERROR_SCHEMAS },
    headers: { ...doc.components?.headers, ...CONVENTION_HEADERS },
  };
  return doc;
}

/** `/fields/{code}` and `/fields/{id}` are one route: keep the name the router uses. */
function mergeEquivalentPaths(doc: OpenAPIObject): void {
  const shape = (p: string) => p.replace(/\{[^}]+\}/g, '{}');
  const byShape = new Map<string, string>();
  for (const path of Object.keys(doc.paths)) {
    const first = byShape.get(shape(path));
    if (!first) {
      byShape.set(shape(path), path);
      continue;
    }
    // The routed name wins: `{id}` only when the other path was not scanned from a route.
    const [keep, drop] = isGeneratedOnly(doc, first) ? [path, first] : [first, path];
    const names = [...keep.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const dropped = [...drop.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(doc.paths[drop] as Record<string, Operation>)) {
      for (const p of op.parameters ?? []) {
        const i = p.in === 'path' ? dropped.indexOf(p.name) : -1;
        if (i >= 0) p.name = names[i];
      }
      (doc.paths[keep] as Record<string, Operation>)[method] ??= op;
      if (!op['x-scanned']) (doc.paths[keep] as Record<string, Operation>)[method] = op;
    }
    delete doc.paths[drop];
    byShape.set(shape(path), keep);
  }
}

function isGeneratedOnly(doc: OpenAPIObject, path: string): boolean {
  return Object.values(doc.paths[path] as Record<string, Operation>).every(
    (op) => !op['x-scanned'],
  );
}

/** A page's form documented with its own schema (strings), beside the JSON body's. */
function placeFormBody(op: Operation): void {
  const schema = op[FORM_BODY_EXTENSION];
  if (!schema) return;
  delete op[FORM_BODY_EXTENSION];
  const content = (op.requestBody ??= { required: true, content: {} }).content;
  content['application/x-www-form-urlencoded'] = { schema };
}

function declarePathParameters(path: string, op: Operation): void {
  op.parameters ??= [];
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    const declared = op.parameters.find((p: Operation) => p.in === 'path' && p.name === name);
    if (declared) {
      declared.required = true;
      declared.schema ??= { type: 'string' };
      declared.description ??= `The ${name} of the record.`;
      continue;
    }
    op.parameters.push({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
      description: name === 'id' ? 'The identifier of the record.' : `The ${name} of the record.`,
    });
  }
  op.parameters = op.parameters.filter(
    (p: Operation) => p.in !== 'path' || path.includes(`{${p.name}}`),
  );
}

/** Stable ids: the declared one when unique and not Nest's `Controller_method`, else from the route. */
function uniqueOperationId(
  current: string | undefined,
  method: string,
  path: string,
  taken: Set<string>,
): string {
  let id =
    current && !current.includes('_')
      ? current
      : method +
        path
          .split('/')
          .filter(Boolean)
          .map((s) => (s.startsWith('{') ? `By${camel(s.slice(1, -1))}` : camel(s)))
          .join('');
  if (taken.has(id)) {
    const fromPath = `${id}Via${path
      .split('/')
      .filter((s) => s && !s.startsWith('{'))
      .map(camel)
      .join('')}`;
    id = fromPath;
    for (let n = 2; taken.has(id); n++) id = `${fromPath}${n}`;
  }
  taken.add(id);
  return id;
}

function camel(segment: string): string {
  return segment
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

function tagOf(path: string, registry: ResourceRegistry): string {
  const segments = path.split('/').filter((s) => s && !s.startsWith('{'));
  for (let i = segments.length; i > 0; i--) {
    const collection = `/${segments.slice(0, i).join('/')}`;
    const resource = registry.all().find((r) => r.path === collection);
    if (resource) return resource.shortName;
  }
  const first = segments.find((s) => s !== 'public') ?? 'Service';
  return camel(first);
}

function addErrors(
  op: Operation,
  method: string,
  path: string,
  access: AccessLevel,
  refusesDelegated: boolean,
): void {
  const codes = new Set<number>([406, 500, 503]);
  if (access !== 'public') codes.add(401);
  if (access !== 'public' && access !== 'user' && access !== 'team:member') codes.add(403);
  if (refusesDelegated) codes.add(403);
  if (path.includes('{')) codes.add(404);
  if (method === 'post' || method === 'put' || method === 'patch') {
    [400, 415, 422].forEach((c) => codes.add(c));
  }
  if (method === 'get' && Object.keys(op.responses ?? {}).some((c) => c === '200')) codes.add(400);
  op.responses ??= {};
  for (const code of [...codes].sort()) {
    op.responses[code] ??= { description: ERROR_WORDS[code] };
    op.responses[code].description ??= ERROR_WORDS[code];
    if (code === 429 || code === 503)
      op.responses[code].headers ??= {
        'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
      };
  }
  // A page's errors are pages too (a browser asked for it).
  const page = Object.entries(op.responses as Record<string, Operation>).some(
    ([code, r]) => code.startsWith('2') && r.content?.['text/html'],
  );
  for (const [code, response] of Object.entries(op.responses as Record<string, Operation>)) {
    const status = Number(code);
    if (status >= 400) {
      // Whoever declared it, the layer's own errors (ApiExceptionFilter) may answer it too.
      response.content = {
        ...(status === 422 ? VIOLATIONS_CONTENT : ERROR_CONTENT),
        ...response.content,
      };
      if (page) response.content['text/html'] ??= TEXT;
    } else if (status >= 300 && status < 400) {
      // Express writes a short note beside the Location, in text or HTML as Accept asks.
      response.content ??= { 'text/plain': TEXT, 'text/html': TEXT };
    }
  }
}

const TEXT = { schema: { type: 'string' } };

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The headers of README "API conventions", documented once and named by every operation. */
const CONVENTION_HEADERS = {
  RateLimitPolicy: {
    description:
      'The budgets this request counted against (IETF draft `RateLimit-Policy`): `"caller"` and `"team"` with a token, `"address"` without; `q` requests per `w` seconds.',
    schema: { type: 'string', example: '"caller";q=3000;w=60, "team";q=10000;w=60' },
  },
  RateLimit: {
    description:
      'The budget closest to its end (IETF draft `RateLimit`): `r` requests remaining, `t` seconds until its window restarts.',
    schema: { type: 'string', example: '"caller";r=2999;t=42' },
  },
  XRateLimitLimit: {
    description: 'Requests per window of the budget closest to its end.',
    schema: { type: 'integer' },
  },
  XRateLimitRemaining: {
    description: 'Requests left in its window.',
    schema: { type: 'integer' },
  },
  XRateLimitReset: {
    description: 'When its window restarts (Unix time, seconds).',
    schema: { type: 'integer' },
  },
  ETag: {
    description:
      'Strong validator of this representation (each format has its own): send it back in If-None-Match (304) or, on PUT and DELETE, If-Match (412 when the record changed).',
    schema: { type: 'string' },
  },
  LastModified: {
    description: 'When the record last changed (records with `updatedAt`).',
    schema: { type: 'string' },
  },
  IdempotentReplayed: {
    description:
      '`true` when this answer is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': header('RateLimitPolicy'),
  RateLimit: header('RateLimit'),
  'X-RateLimit-Limit': header('XRateLimitLimit'),
  'X-RateLimit-Remaining': header('XRateLimitRemaining'),
  'X-RateLimit-Reset': header('XRateLimitReset'),
};

/** Whether `path` is the item route of a declared resource (`/shipments/{id}`). */
function isItemRoute(path: string, registry: ResourceRegistry): boolean {
  const m = /^(.*)\/\{[^}/]+\}$/.exec(path);
  return m !== null && registry.all().some((r) => r.path === m[1]);
}

/**
 * README "API conventions", said once for every operation from its method and route: the
 * rate-limit headers and 429 everywhere, `Idempotency-Key` on every POST (409 while the first
 * request runs, `Idempotent-Replayed` on a replay), validators and If-None-Match (304) on
 * resource items, If-Match (412) on their PUT and DELETE.
 */
function addConventions(
  op: Operation,
  method: string,
  path: string,
  _access: AccessLevel,
  registry: ResourceRegistry,
): void {
  op.responses ??= {};
  op.parameters ??= [];
  const successes = Object.entries(op.responses as Record<string, Operation>).filter(
    ([code]) => code.startsWith('2') || code.startsWith('3'),
  );
  for (const [, response] of successes)
    response.headers = { ...RATE_LIMIT_HEADERS, ...response.headers };
  op.responses[429] ??= { description: ERROR_WORDS[429] };
  op.responses[429].headers = { ...RATE_LIMIT_HEADERS, ...op.responses[429].headers };
  if (method === 'post') {
    op.parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe: the first answer for this key (per caller, method and path) is kept 24 hours and replayed for the same body without doing the work again; another body is 422.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
    op.responses[409] ??= { description: ERROR_WORDS[409] };
    for (const [, response] of successes)
      response.headers = {
        ...response.headers,
        'Idempotent-Replayed': header('IdempotentReplayed'),
      };
  }
  if (!isItemRoute(path, registry)) return;
  if (method === 'get') {
    op.parameters.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description:
        'ETags the client holds: 304 without a body when the representation is one of them.',
      schema: { type: 'string' },
    });
    op.responses[304] ??= {
      description: 'Not modified: the representation is the one If-None-Match names.',
      headers: { ETag: header('ETag'), ...RATE_LIMIT_HEADERS },
    };
  }
  if (method === 'put' || method === 'delete') {
    op.parameters.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description:
        'The ETag of the representation the change is based on: 412 when the record has changed since (checked on the locked record).',
      schema: { type: 'string' },
    });
    op.responses[412] ??= { description: ERROR_WORDS[412] };
  }
  if (method === 'get' || method === 'put' || method === 'post')
    for (const [code, response] of successes)
      if (code === '200' || code === '201')
        response.headers = {
          ...response.headers,
          ETag: header('ETag'),
          'Last-Modified': header('LastModified'),
        };
}

function describe(op: Operation, access: AccessLevel, refusesDelegated: boolean): void {
  const summary = String(op.summary ?? '').trim();
  const text = String(op.description ?? '').trim() || summary;
  if (!op.summary) op.summary = text.split('. ')[0];
  if (text.includes('**Access:**')) return;
  const errors = Object.keys(op.responses ?? {})
    .filter((c) => Number(c) >= 400)
    .join(', ');
  const delegated = refusesDelegated ? ` ${DELEGATED_WORDS}.` : '';
  op.description = `${text}\n\n**Access:** ${ACCESS_WORDS[access]}.${delegated}\n\n**Errors:** ${errors}.`;
}

const ERROR_CONTENT = {
  'application/ld+json': { schema: { $ref: '#/components/schemas/HydraError' } },
  'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } },
};
const VIOLATIONS_CONTENT = {
  'application/ld+json': { schema: { $ref: '#/components/schemas/ConstraintViolationList' } },
  'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } },
};

const VIOLATION = {
  type: 'object',
  properties: {
    propertyPath: { type: 'string' },
    message: { type: 'string' },
    code: { type: 'string', nullable: true },
  },
};

const ERROR_SCHEMAS = {
  HydraError: {
    type: 'object',
    description: 'An error in JSON-LD (hydra:Error).',
    properties: {
      '@context': { type: 'string' },
      '@type': { type: 'string', example: 'hydra:Error' },
      'hydra:title': { type: 'string' },
      'hydra:description': { type: 'string' },
    },
  },
  ConstraintViolationList: {
    type: 'object',
    description: 'Validation failures in JSON-LD.',
    properties: {
      '@context': { type: 'string' },
      '@type': { type: 'string', example: 'ConstraintViolationList' },
      'hydra:title': { type: 'string' },
      'hydra:description': { type: 'string' },
      violations: { type: 'array', items: VIOLATION },
    },
  },
  ProblemDetails: {
    type: 'object',
    description: 'An error for JSON clients (RFC 7807 application/problem+json).',
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      violations: { type: 'array', items: VIOLATION },
    },
  },
};
