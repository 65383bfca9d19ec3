import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { INestApplication } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/hydra/docs/openapi-setup';
import { toJsonSchema } from './reference-openapi';

/** An answer of the app as a client got it, with the route that served it. */
export interface RecordedAnswer {
  method: string;
  /** The Express route (`/shipments/:id`); undefined when no route matched (the catch-all). */
  route: string | undefined;
  url: string;
  status: number;
  contentType: string | undefined;
  body: string;
  /** The body was longer than the recorder keeps (CSV exports): only its type is checked. */
  truncated: boolean;
}

const KEPT_BYTES = 4 * 1024 * 1024;

/**
 * Records every answer the app's HTTP server writes, whoever sends the request (supertest,
 * fetch): a listener placed before Express's wraps the response's write/end and reads the
 * matched route when the response finishes.
 */
export function recordAnswers(app: INestApplication): RecordedAnswer[] {
  const answers: RecordedAnswer[] = [];
  const server = app.getHttpServer() as Server;
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as never) : 'utf8');
      if (size + buffer.length > KEPT_BYTES) truncated = true;
      else chunks.push(buffer);
      size += buffer.length;
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return write(...args);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return end(...args);
    }) as typeof res.end;
    res.on('finish', () => {
      const route = (req as IncomingMessage & { route?: { path?: unknown } }).route?.path;
      const type = res.getHeader('content-type');
      answers.push({
        method: req.method ?? 'GET',
        route: typeof route === 'string' ? route : undefined,
        url: req.url ?? '',
        status: res.statusCode,
        contentType: typeof type === 'string' ? type : undefined,
        body: decoded(Buffer.concat(chunks), res.getHeader('content-encoding'), truncated),
        truncated,
      });
    });
  });
  return answers;
}

/** The body as the client reads it: compressed answers (README "API conventions") decoded. */
function decoded(body: Buffer, coding: unknown, truncated: boolean): string {
  if (truncated || body.length === 0) return body.toString('utf8');
  if (coding === 'gzip') return gunzipSync(body).toString('utf8');
  if (coding === 'br') return brotliDecompressSync(body).toString('utf8');
  return body.toString('utf8');
}

type Operation = { responses?: Record<string, Response> };
type Response = { content?: Record<string, { schema?: unknown }> };

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;
/** Scripts, the index and the license of Swagger UI: the page's files, not the API. */
const SWAGGER_UI_FILES = /^\/docs\/./;

/**
 * The app's own OpenAPI description as a response contract: the schema of every answer, by
 * operation, status and media type (OpenAPI 3.0 read as JSON Schema, as for the reference).
 */
export class OpenApiResponses {
  private readonly ajv: Ajv;
  private readonly paths: Record<string, Record<string, Operation>>;
  /** `/fields/{}` -> `/fields/{code}`: the described path of a route shape. */
  private readonly byShape = new Map<string, string>();
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(app: INestApplication) {
    const doc = JSON.parse(JSON.stringify(openApiDocument(app))) as {
      paths: Record<string, Record<string, Operation>>;
      components: Record<string, unknown>;
    };
    this.paths = doc.paths;
    for (const path of Object.keys(doc.paths)) this.byShape.set(shape(path), path);
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    // Our IRIs (`/shipments/{id}`) are relative references: any string passes, as API Platform's.
    this.ajv.addFormat('iri-reference', true);
    this.ajv.addSchema({ components: toJsonSchema(doc.components) }, 'self');
  }

  /** What is wrong with the answer by the description; empty when it conforms. */
  problems(answer: RecordedAnswer): string[] {
    // No route (the catch-all's 404), or one of Swagger UI's files for the page at /docs.
    if (!answer.route || SWAGGER_UI_FILES.test(answer.route)) return [];
    const at = `${answer.method} ${answer.route} ${answer.status}`;
    const path = this.byShape.get(shape(answer.route.replace(/:([A-Za-z0-9_]+)/g, '{$1}')));
    const operation = path ? this.paths[path][answer.method.toLowerCase()] : undefined;
    if (!operation) return [`${at}: ${answer.method} ${answer.route} is not described`];
    const response = operation.responses?.[String(answer.status)] ?? operation.responses?.default;
    if (!response) return [`${at}: status ${answer.status} is not described`];
    const type = answer.contentType?.split(';')[0].trim().toLowerCase();
    if (!type || !answer.body) {
      return answer.body ? [`${at}: a body without a Content-Type`] : [];
    }
    const content =
      response.content?.[type] ??
      response.content?.[`${type.split('/')[0]}/*`] ??
      response.content?.['*/*'];
    if (!content) {
      const described = Object.keys(response.content ?? {}).join(', ') || 'none';
      return [`${at}: ${type} is not described (${described})`];
    }
    if (!JSON_TYPE.test(type) || answer.truncated) return [];
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [`${at}: ${type} that is no JSON`];
    }
    const validate = this.validator(path!, answer.method, String(answer.status), type, content);
    if (validate(body)) return [];
    return (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => ({ ...e, message: `${e.message} (${shorten(valueAt(body, e.instancePath))})` }))
      .map(
        (e) =>
          `${at} ${type}: ${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`,
      );
  }

  private validator(
    path: string,
    method: string,
    status: string,
    type: string,
    content: { schema?: unknown },
  ): ValidateFunction {
    const key = `${method} ${path} ${status} ${type}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const bound = JSON.parse(
        JSON.stringify(toJsonSchema(content.schema ?? {})).replace(
          /"#\/components\//g,
          '"self#/components/',
        ),
      );
      validate = this.ajv.compile(bound);
      this.cache.set(key, validate);
    }
    return validate;
  }
}

/** The value at a JSON pointer of the body (what a schema error is about). */
function valueAt(body: unknown, pointer: string): string {
  let value = body;
  for (const key of pointer.split('/').slice(1))
    value = (value as Record<string, unknown> | undefined)?.[
      key.replace(/~1/g, '/').replace(/~0/g, '~')
    ];
  return JSON.stringify(value) ?? 'undefined';
}

function shorten(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function shape(path: string): string {
  return path.replace(/\{[^}]+\}/g, '{}');
}

/**
 * Every problem of the answers, each distinct one once with the first URL that showed it, for
 * one `toEqual([])`.
 */
export function answerProblems(app: INestApplication, answers: RecordedAnswer[]): string[] {
  const contract = new OpenApiResponses(app);
  const seen = new Map<string, string>();
  for (const answer of answers)
    for (const problem of contract.problems(answer))
      if (!seen.has(problem)) seen.set(problem, answer.url.slice(0, 200));
  return [...seen].map(([problem, url]) => `${problem} (${url})`).sort();
}
