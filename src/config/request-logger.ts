import type { IncomingMessage, ServerResponse } from 'http';
import type { Level, Logger } from 'pino';
import { requestId } from './logger-options';

/**
 * The level of a request's line: 5xx are errors, except a 503, which is the database's state
 * (logged once per outage by DatabaseOutage) and warns like a 4xx; the rest is info.
 */
export function requestLogLevel(status: number, aborted: boolean): Level {
  if (status === 503 || aborted) return 'warn';
  if (status >= 500) return 'error';
  return status >= 400 ? 'warn' : 'info';
}

/**
 * One line per request, written when the response is done (pino-http's shape: `req`, `res`,
 * `responseTime`, "request completed" / "request errored" / "request aborted"), and the
 * request id assigned first so every answer carries it. Nothing is built per request unless
 * the line's level is enabled: no child logger, no async context (pino-http's child logger
 * and nestjs-pino's AsyncLocalStorage cost a sixth of a small request: bench/README.md).
 * Log lines written while handling a request name its id themselves (the exception filter).
 * `logger` may be a getter: nestjs-pino creates its logger when the app starts listening.
 */
export function requestLogger(logger: Logger | (() => Logger)) {
  const log = typeof logger === 'function' ? logger : () => logger;
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    requestId(req, res);
    const start = performance.now();
    // 'close' follows 'finish' on every response, and comes alone when the client went away.
    res.once('close', () => {
      const aborted = !res.writableFinished;
      const level = requestLogLevel(res.statusCode, aborted);
      const logger = log();
      if (!logger.isLevelEnabled(level)) return;
      // The line's req/res are shaped by the logger's serializers (logger-options.ts).
      const line = { req, res, responseTime: Math.round(performance.now() - start) };
      const message = aborted
        ? 'request aborted'
        : res.statusCode >= 500 && res.statusCode !== 503
          ? 'request errored'
          : 'request completed';
      logger[level](line, message);
    });
    next();
  };
}
