import { randomUUID } from 'crypto';
import type { IncomingMessage, ServerResponse } from 'http';
import type { Params } from 'nestjs-pino';
import { stdSerializers } from 'pino';
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

/** nestjs-pino options: JSON in production, pretty otherwise (plain JSON in tests). */
export function loggerOptions(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId: requestId,
      // One short line per request; headers stay out (they may carry tokens and are noisy).
      // URLs carry secrets (OAuth codes and tokens in the query, capability paths): every
      // URL and message is redacted here, the one place every log line passes through.
      serializers: {
        req: (req: { id: string; method: string; url: string; remoteAddress?: string }) => ({
          id: req.id,
          method: req.method,
          url: redactSecrets(String(req.url ?? '')),
          remoteAddress: req.remoteAddress,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
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
          method.apply(this, args.map(redactArgument));
        },
      },
      // A 503 is the database's state (logged once per outage), not a bug: warn, like a 4xx,
      // and without the stack pino-http makes up for every 5xx.
      customErrorObject: (_req, res, _error, value: Record<string, unknown>) =>
        res.statusCode === 503 ? { ...value, err: undefined } : value,
      customLogLevel: (_req, res, error) =>
        res.statusCode === 503
          ? 'warn'
          : error || res.statusCode >= 500
            ? 'error'
            : res.statusCode >= 400
              ? 'warn'
              : 'info',
      transport:
        config.nodeEnv === 'development'
          ? {
              target: 'pino-pretty',
              options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' },
            }
          : undefined,
    },
  };
}
