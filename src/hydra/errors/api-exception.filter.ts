import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import { negotiateFormat } from '../serialization/negotiation';
import type { ResourceRegistry } from '../metadata/resource-registry';
import {
  classifyDatabaseFailure,
  DATABASE_RETRY_AFTER,
  type DatabaseFailure,
} from '../../database/outage/database-failure';
import type { DatabaseOutage } from '../../database/outage/database-outage';
import {
  ApiError,
  ValidationError,
  Violation,
  ViolationCodes,
} from '../../common/errors/api-errors';
import { jsonLdError, problemError } from './error-body';
import type { RouteTable } from './route-table';
import type { RequestBudget } from '../../access/request-budget';
import { principalOf } from '../../access/current-principal';
import type { Responder } from '../actions/responder';

/** What the SQLSTATE rules read of a PostgreSQL error. */
type DriverError = { code?: string; constraint?: string };

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Access Denied.',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

interface Rendered {
  status: number;
  description: string;
  violations?: Violation[];
  headers: Record<string, string>;
  extra: Record<string, unknown>;
  /** A 503 caused by the database's state: reported to DatabaseOutage, not logged per request. */
  databaseFailure?: DatabaseFailure;
}

/**
 * The one place errors become responses: hydra:Error / ConstraintViolationList
 * in JSON-LD, problem+json for JSON clients. Nothing internal (stack, SQL)
 * ever reaches the body; unexpected errors are logged with the request id.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  constructor(
    private readonly registry?: ResourceRegistry,
    private readonly routes?: RouteTable,
    private readonly outage?: DatabaseOutage,
    private readonly budget?: RequestBudget,
    private readonly docs?: Pick<Responder, 'documentationLink'>,
  ) {}

  /** Express error middleware for failures before Nest's router (body parsers). */
  expressHandler() {
    return (error: unknown, req: Request, res: Response, _next: (e?: unknown) => void) =>
      this.respond(error, req, res);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    this.respond(exception, ctx.getRequest<Request>(), ctx.getResponse<Response>());
  }

  respond(exception: unknown, req: Request, res: Response): void {
    // Refused before the AccessGuard counted it (a body parser's 400/413, a path that does
    // not decode, 404/405 of no route): counted now, so every answer tells its budget.
    if (this.budget && !res.headersSent && res.getHeader('RateLimit-Policy') === undefined) {
      try {
        this.budget.charge(req, res, principalOf(req));
      } catch {
        // Over the budget: the request's own error is the more useful answer.
      }
    }
    const rendered = this.render(exception, req);
    if (rendered.databaseFailure) {
      // One log line per outage (DatabaseOutage), not a stack per request.
      this.outage?.report(exception);
    } else if (rendered.status >= 500 && !(exception instanceof ApiError)) {
      // An ApiError is a deliberate answer (e.g. 503 "not configured"); anything else is a bug.
      this.logger.error(
        { err: exception, reqId: (req as Request & { id?: unknown }).id, path: req.originalUrl },
        'Unhandled error',
      );
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    const format =
      (req as Request & { apiFormat?: string }).apiFormat ??
      negotiateFormat(req.headers.accept) ??
      'jsonld';
    for (const [k, v] of Object.entries(rendered.headers)) res.setHeader(k, v);
    // Like every JSON-LD answer: Hydra clients (the console's fetchHydra) expand an error
    // against the documentation it names, and without it lose the error's status.
    if (this.docs) res.setHeader('Link', this.docs.documentationLink(req));
    const { status, description, violations, extra } = rendered;
    if (format === 'json') {
      res.status(status).setHeader('Content-Type', 'application/problem+json; charset=utf-8');
      res.send(JSON.stringify(problemError(status, description, violations, extra)));
    } else {
      res.status(status).setHeader('Content-Type', 'application/ld+json; charset=utf-8');
      res.send(JSON.stringify(jsonLdError(status, description, violations, extra)));
    }
  }

  render(exception: unknown, req: Request): Rendered {
    if (exception instanceof ValidationError) {
      return {
        status: 422,
        description: exception.description,
        violations: exception.violations,
        headers: exception.headers,
        extra: exception.extra,
      };
    }
    if (exception instanceof ApiError) {
      return {
        status: exception.status,
        description: exception.description,
        headers: exception.headers,
        extra: exception.extra,
      };
    }
    const databaseFailure = classifyDatabaseFailure(exception);
    if (databaseFailure) {
      return {
        status: 503,
        description:
          databaseFailure === 'unavailable'
            ? 'The service is temporarily unavailable; retry later.'
            : 'The service is busy; retry later.',
        headers: { 'Retry-After': DATABASE_RETRY_AFTER[databaseFailure] },
        extra: {},
        databaseFailure,
      };
    }
    if (exception instanceof QueryFailedError)
      return this.databaseError(exception.driverError as DriverError);
    // Statements sent on a pg client directly (prepared statements of the write path)
    // fail with pg's own DatabaseError: the same SQLSTATE rules apply.
    if (exception instanceof DatabaseError) return this.databaseError(exception);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404 && this.routes) {
        const allowed = this.routes.allowedMethods(req.path);
        if (allowed.length > 0 && !allowed.includes(req.method)) {
          return {
            status: 405,
            description: `No route found for "${req.method} ${req.path}": Method Not Allowed (Allow: ${allowed.join(', ')})`,
            headers: { Allow: allowed.join(', ') },
            extra: {},
          };
        }
      }
      const headers: Record<string, string> = {};
      if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
      if (status === 429) headers['Retry-After'] = '60';
      const response = exception.getResponse();
      const message =
        typeof response === 'object' && response && 'message' in response
          ? (response as { message: unknown }).message
          : exception.message;
      const description =
        status === 404
          ? 'Not Found'
          : status >= 500
            ? STATUS_TEXT[500]
            : typeof message === 'string'
              ? message
              : (STATUS_TEXT[status] ?? 'Error');
      return { status, description, headers, extra: {} };
    }
    const bodyError = exception as { type?: string; status?: number; statusCode?: number };
    if (bodyError && typeof bodyError === 'object' && typeof bodyError.type === 'string') {
      if (bodyError.type === 'entity.parse.failed')
        return { status: 400, description: 'Syntax error', headers: {}, extra: {} };
      if (bodyError.type === 'entity.too.large')
        return { status: 413, description: 'Request Entity Too Large', headers: {}, extra: {} };
      if (bodyError.type === 'encoding.unsupported' || bodyError.type === 'charset.unsupported') {
        return { status: 415, description: 'Unsupported Media Type', headers: {}, extra: {} };
      }
      const s = bodyError.status ?? bodyError.statusCode;
      if (s && s >= 400 && s < 500)
        return { status: s, description: STATUS_TEXT[s] ?? 'Bad Request', headers: {}, extra: {} };
    }
    const multer = exception as { code?: string; name?: string };
    if (multer && multer.name === 'MulterError') {
      return {
        status: multer.code === 'LIMIT_FILE_SIZE' ? 413 : 400,
        description: String((exception as Error).message),
        headers: {},
        extra: {},
      };
    }
    return { status: 500, description: STATUS_TEXT[500], headers: {}, extra: {} };
  }

  private databaseError(driver: DriverError): Rendered {
    if (driver.code === '23505') {
      const hit = this.uniqueProperty(driver.constraint);
      const message = hit?.message ?? 'This value is already used.';
      const propertyPath = hit?.property ?? '';
      return {
        status: 422,
        description: (propertyPath ? `${propertyPath}: ` : '') + message,
        violations: [{ propertyPath, message, code: ViolationCodes.unique }],
        headers: {},
        extra: {},
      };
    }
    if (driver.code === '23503')
      return {
        status: 409,
        description: 'The record is still referenced by other records.',
        headers: {},
        extra: {},
      };
    // Deadlock or serialization failure between concurrent writes: nothing was
    // changed and the same request can simply be sent again.
    if (driver.code === '40P01' || driver.code === '40001')
      return {
        status: 409,
        description: 'The record was changed by a concurrent request; retry the request.',
        headers: { 'Retry-After': '1' },
        extra: {},
      };
    if (driver.code?.startsWith('22'))
      return { status: 400, description: 'Invalid value in request.', headers: {}, extra: {} };
    return { status: 500, description: STATUS_TEXT[500], headers: {}, extra: {} };
  }

  private uniqueProperty(constraint?: string): { property: string; message: string } | null {
    if (!constraint || !this.registry) return null;
    for (const resource of this.registry.all()) {
      const hit = resource.options.uniqueConstraints?.[constraint];
      if (hit)
        return { property: hit.property, message: hit.message ?? 'This value is already used.' };
    }
    return null;
  }
}
