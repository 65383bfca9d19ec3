import type { IncomingMessage } from 'http';

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The access token of a request (RFC 6750): the `Authorization: Bearer` header, or an
 * `access_token` form-body parameter (section 2.2), or an `access_token` query parameter
 * (section 2.3). `null` when there is none, or when the client used more than one
 * method (the RFC forbids it), or when the header is not a well-formed bearer credential.
 */
export function bearerToken(
  req: IncomingMessage & { body?: unknown; query?: unknown },
): string | null {
  const found: unknown[] = [];
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = BEARER.exec(header);
    if (match) found.push(match[1]);
    else if (/^Bearer\b/i.test(header)) return null;
  }
  const fromBody = formParameter(req);
  if (fromBody !== undefined) found.push(fromBody);
  const fromQuery = (req.query as Record<string, unknown> | undefined)?.access_token;
  if (fromQuery !== undefined) found.push(fromQuery);
  if (found.length !== 1 || typeof found[0] !== 'string' || !found[0]) return null;
  return found[0];
}

/** `access_token` of an application/x-www-form-urlencoded body only (RFC 6750 2.2). */
function formParameter(req: IncomingMessage & { body?: unknown }): unknown {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) return;
  const body = req.body as Record<string, unknown> | undefined;
  return body && typeof body === 'object' ? body.access_token : undefined;
}
