import type { IncomingMessage, ServerResponse } from 'http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's headers, computed once: helmet runs a dozen middlewares per request that set the
 * same values every time (CSP, HSTS, COOP, ...). Running it once against a recording response
 * gives the list; each request then sets them in one loop. Routes that need another policy
 * (the tracking page's CSP with nonces) overwrite the header as before.
 */
export function securityHeaders(options?: HelmetOptions) {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  helmet(options)(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    for (let i = 0; i < headers.length; i++) res.setHeader(headers[i][0], headers[i][1]);
    next();
  };
}
