import { randomUUID } from 'crypto';
import type { IncomingMessage, ServerResponse } from 'http';
import type { Params } from 'nestjs-pino';
import { AppConfig } from './app-config';

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

/** nestjs-pino options: JSON in production, pretty otherwise (plain JSON in tests). */
export function loggerOptions(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId: requestId,
      // One short line per request; headers stay out (they may carry tokens and are noisy).
      serializers: {
        req: (req: { id: string; method: string; url: string; remoteAddress?: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
          remoteAddress: req.remoteAddress,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
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
