import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import { Logger, PinoLogger } from 'nestjs-pino';
import { adminConsole } from './admin-console/admin-console';
import { installCheapAsyncResourceBind } from './common/async-resource-bind';
import { compressAnswers } from './common/http/compression';
import { AppConfig } from './config/app-config';
import { requestLogger } from './config/request-logger';
import { securityHeaders } from './config/security-headers';
import { DatabaseOutage } from './database/outage/database-outage';
import { Responder } from './hydra/actions/responder';
import { ApiExceptionFilter } from './hydra/errors/api-exception.filter';
import { RouteTable } from './hydra/errors/route-table';
import { REQUEST_BUDGET, type RequestBudget } from './access/request-budget';
import { setupOpenApi } from './hydra/docs/openapi-setup';
import { ResourceRegistry } from './hydra/metadata/resource-registry';

/** Media types parsed as JSON: plain JSON, JSON-LD and every `+json` suffix type. */
export const JSON_MEDIA_TYPES = ['application/json', 'application/ld+json', 'application/*+json'];

/** Whether a request carries a body (RFC 9112 6.3: a length or a transfer coding). */
export function hasBody(req: Request): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined
  );
}

/**
 * Keeps the bytes of a JSON or form body as `req.rawBody` (Nest's RawBodyRequest), for
 * receivers that check a signature over exactly what was sent (billing webhooks, store
 * webhooks: WooCommerce's creation ping is a form).
 */
function keepRawBody(req: unknown, _res: unknown, buf: Buffer): void {
  (req as { rawBody?: Buffer }).rawBody = buf;
}

/**
 * Every global piece of the HTTP application, in one place, so `main.ts` and the e2e app
 * factory (test/support/app.ts) build the same app. The app must be created with
 * `{ bodyParser: false, bufferLogs: true }`: body parsing is configured here, with our limit
 * and media types. Global filters, pipes and interceptors belong here too.
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(AppConfig);
  // Nest's interceptor chain calls AsyncResource.bind twice per request: see the module.
  installCheapAsyncResourceBind();
  app.useLogger(app.get(Logger));
  const logRequest = requestLogger(() => PinoLogger.root);
  const setSecurityHeaders = securityHeaders();
  const compress = compressAnswers();
  app.disable('x-powered-by');
  // Per-client budgets key on req.ip: behind a proxy it is the proxy's address unless Express
  // is told which X-Forwarded-For hops to believe. Unset keeps Express's default (none).
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  // No body hashing for ETags on every response: API Platform sends none either.
  app.set('etag', false);
  const json = express.json({
    limit: config.bodyLimit,
    type: JSON_MEDIA_TYPES,
    verify: keepRawBody,
  });
  const form = express.urlencoded({
    limit: config.bodyLimit,
    extended: true,
    verify: keepRawBody,
  });
  // Both parsers, skipped at once by requests without a body (most of them). Multipart
  // bodies are left to the action that takes them, after authentication (MultipartReader);
  // should the answer come first (401, 404...), the connection is closed instead of draining
  // an upload nobody reads.
  const readBody = (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    if (req.is('multipart/form-data')) res.setHeader('Connection', 'close');
    json(req, res, (error?: unknown) => (error ? next(error) : form(req, res, next)));
  };
  // One Express layer for what every request goes through (each layer costs a few µs of
  // routing): the request line and id first, so even a 413 carries its x-request-id and is
  // logged, then the security headers, the answer's compression (README "API conventions":
  // whatever writes it, streams included), then the body.
  app.use((req: Request, res: Response, next: NextFunction) =>
    logRequest(req, res, () =>
      setSecurityHeaders(req, res, () => compress(req, res, () => readBody(req, res, next))),
    ),
  );
  // The merchant console's static files (src/admin-console): a mount, not an API route.
  app.use('/admin', adminConsole());
  // Errors from the body parsers (400 syntax, 413 size, 415 charset) and from
  // the router are rendered by the same filter as everything else.
  const errors = new ApiExceptionFilter(
    app.get(ResourceRegistry),
    new RouteTable(app),
    app.get(DatabaseOutage),
    requestBudgetOf(app),
    app.get(Responder),
  );
  app.use(errors.expressHandler());
  app.useGlobalFilters(errors);
  setupOpenApi(app);
  // process.exit (not re-raising the signal) lets pino flush its last lines on the way out.
  app.enableShutdownHooks(undefined, { useProcessExit: true });
  return app;
}

function requestBudgetOf(app: NestExpressApplication): RequestBudget | undefined {
  try {
    return app.get<RequestBudget>(REQUEST_BUDGET, { strict: false });
  } catch {
    return undefined;
  }
}
