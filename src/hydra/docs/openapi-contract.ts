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
