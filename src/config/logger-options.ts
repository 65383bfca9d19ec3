import { randomUUID } from 'crypto';
import type { IncomingMessage, ServerResponse } from 'http';
import type { Params } from 'nestjs-pino';
import { stdSerializers, type LoggerOptions } from 'pino';
import { AppConfig } from './app-config';
import { redactSecrets } from './log-redaction';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_REQUEST_ID = /^[\w.:@-]{1,128}$/;

/**
 * The id of a request: the caller's `x-request-id` when it is sane (so ids follow a request
 * across services), otherwise a new UUID. Echoed in the response header.
 */
export function requestId(req: IncomingMessage & { id?: unknown }, res: ServerResponse): string {
  if (typeof req.id === 'string') return req.id; // assigned earlier in this request
  const incoming = req.headers[REQUEST_ID_HEADER];
  const id =
    typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  req.id = id;
  return id;
}

/** A log call's argument with secrets redacted: strings, and string members of objects. */
function redactArgument(arg: unknown): unknown {
  if (typeof arg === 'string') return redactSecrets(arg);
  if (arg === null || typeof arg !== 'object' || arg instanceof Error || Array.isArray(arg))
    return arg;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(arg as Record<string, unknown>))
    out[key] = typeof value === 'string' ? redactSecrets(value) : value;
  return out;
}

interface RequestLike {
  id?: unknown;
  method?: string;
  url?: string;
  originalUrl?: string;
  remoteAddress?: string;
  socket?: { remoteAddress?: string };
}

/**
 * The pino options of every log line: JSON in production, pretty in development (plain JSON
 * in tests). URLs and messages carry secrets (OAuth codes and tokens in queries, capability
 * paths): every message and string argument is redacted here, the one place every line
 * passes through; request lines build their redacted URL themselves (request-logger.ts).
 */
export function pinoOptions(config: AppConfig): LoggerOptions {
  return {
    level: config.logLevel,
    // A request line's req and res (request-logger.ts): the route and the status, never the
    // headers (tokens, cookies). They receive either the raw objects or pino-http's mapping.
    serializers: {
      req: (req: RequestLike) => ({
        id: req.id,
        method: req.method,
        url: redactSecrets(String(req.originalUrl ?? req.url ?? '')),
        remoteAddress: req.remoteAddress ?? req.socket?.remoteAddress,
      }),
      res: (res: { statusCode?: number | null }) => ({ statusCode: res.statusCode }),
      err: (err: Error) => {
        const out = stdSerializers.err(err);
        if (typeof out.message === 'string') out.message = redactSecrets(out.message);
        if (typeof out.stack === 'string') out.stack = redactSecrets(out.stack);
        return out;
      },
    },
    hooks: {
      logMethod(args: unknown[], method: (...a: unknown[]) => void) {
        // An error logged alone lends its message to the line: give a redacted one.
        if (args[0] instanceof Error && typeof args[1] !== 'string')
          args = [args[0], args[0].message, ...args.slice(1)];
        method.apply(this, args.map(redactArgument) as Parameters<typeof method>);
      },
    },
    transport:
      config.nodeEnv === 'development'
        ? {
            target: 'pino-pretty',
            options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' },
          }
        : undefined,
  };
}

/**
 * nestjs-pino options: Nest's logger writes through pino. Its per-request middleware
 * (pino-http's child logger and an AsyncLocalStorage context per request) is not mounted
 * (`forRoutes: []`): the request line comes from `requestLogger` (app.setup.ts), at a fraction
 * of the cost.
 */
export function loggerOptions(config: AppConfig): Params {
  return { pinoHttp: pinoOptions(config), forRoutes: [] };
}
