/**
 * Which client a token request authenticates as, shared by the token routes (`/oauth/v2/*`,
 * the tracking providers' token URL) and their rate limit, so the budget counts the client the
 * route then checks. Pure.
 */

/** HTTP Basic client credentials: as sent, and form-decoded (RFC 6749 2.3.1) when that differs. */
export interface BasicClient {
  id: string;
  secret: string;
  decoded: { id: string; secret: string } | null;
}

/** The Authorization header's Basic credentials; null: none; 'malformed': no `id:secret`. */
export function basicCredentials(header: string | undefined): BasicClient | null | 'malformed' {
  if (header === undefined || !/^basic /i.test(header.trim())) return null;
  const raw = Buffer.from(header.trim().slice(6).trim(), 'base64').toString('utf8');
  const colon = raw.indexOf(':');
  if (colon < 0) return 'malformed';
  const id = raw.slice(0, colon);
  const secret = raw.slice(colon + 1);
  let decoded: { id: string; secret: string } | null = null;
  try {
    const form = (v: string) => decodeURIComponent(v.replace(/\+/g, ' '));
    decoded = { id: form(id), secret: form(secret) };
    if (decoded.id === id && decoded.secret === secret) decoded = null;
  } catch {
    decoded = null;
  }
  return { id, secret, decoded };
}

export interface TokenClient {
  /**
   * The client the request authenticates as, the one its budget counts: the HTTP Basic user
   * name when Basic is used (an encoding of it reads as the decoded id), else the `client_id`
   * parameter; null when neither names one.
   */
  clientId: string | null;
  /** The Basic credentials, when Basic is used. */
  basic: BasicClient | null;
  /**
   * Why the request is RFC 6749's `invalid_request`: a Basic header without `id:secret`, or a
   * `client_id` parameter naming another client than Basic (one client per request, 2.3).
   */
  invalid?: string;
}

/** The client of a token request, from its Authorization header and its parameters. */
export function tokenClient(
  authorization: string | undefined,
  params: Readonly<Record<string, unknown>>,
): TokenClient {
  const named = typeof params.client_id === 'string' && params.client_id ? params.client_id : null;
  const basic = basicCredentials(authorization);
  if (basic === 'malformed')
    return {
      clientId: named,
      basic: null,
      invalid: 'The HTTP Basic credentials are malformed (expected client_id:secret).',
    };
  if (!basic) return { clientId: named, basic: null };
  const clientId = basic.decoded?.id ?? basic.id;
  if (named !== null && named !== basic.id && named !== basic.decoded?.id)
    return {
      clientId,
      basic,
      invalid: 'The client_id parameter differs from the HTTP Basic client.',
    };
  return { clientId, basic };
}
