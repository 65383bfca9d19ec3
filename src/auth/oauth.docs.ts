import type { ResponseDoc } from '../hydra/actions/action-declaration';

/*
 * What the OAuth 2 endpoints answer besides the layer's errors, for their declarations: RFC
 * 6749 token bodies and errors, Cache-Control: no-store, HTML pages, redirects. Their request
 * parameters are documented by their inputs (oauth.input.ts).
 */

export const TOKEN_RESPONSE = {
  type: 'object',
  required: ['access_token', 'expires_in', 'token_type', 'user_id', 'user_email'],
  properties: {
    access_token: { type: 'string', description: 'The bearer token for the API.' },
    expires_in: { type: 'integer', description: 'Seconds until the access token expires.' },
    token_type: { type: 'string', enum: ['bearer'] },
    scope: { type: 'string', nullable: true, description: 'The granted scopes.' },
    refresh_token: {
      type: 'string',
      description: 'Given for `authorization_code` and `refresh_token` grants.',
    },
    user_id: { type: 'string', format: 'uuid', description: 'The user the token acts for.' },
    user_email: { type: 'string', format: 'email' },
  },
};

const OAUTH_ERROR = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'string',
      enum: [
        'invalid_request',
        'invalid_client',
        'invalid_grant',
        'unauthorized_client',
        'unsupported_grant_type',
        'invalid_scope',
      ],
    },
    error_description: { type: 'string' },
  },
};

const NO_STORE = {
  'Cache-Control': { description: 'no-store', schema: { type: 'string' } },
  Pragma: { description: 'no-cache', schema: { type: 'string' } },
};

const OAUTH_ERROR_CONTENT = { 'application/json': { schema: OAUTH_ERROR } };
const HTML = { 'text/html': { schema: { type: 'string' } } };

export const TOKEN_DESCRIPTION =
  'Public (the client authenticates itself with `client_id`/`client_secret` or HTTP Basic; a `client_id` parameter beside HTTP Basic must name the same client). Issues an access token for the grant: `client_credentials` (the client\u2019s owner), `authorization_code` (with `code`, `redirect_uri` and, for PKCE, `code_verifier`), or `refresh_token` (rotated; a reused one revokes its family). Answers RFC 6749 JSON with Cache-Control: no-store, whatever Accept asks. Errors are RFC 6749 bodies `{error, error_description}`: 400 for a bad request or grant (a body that cannot be read is a request without parameters; `invalid_request` for malformed HTTP Basic credentials or a `client_id` parameter naming another client than HTTP Basic), 401 `invalid_client` for wrong HTTP Basic credentials, 429 beyond the token routes\u2019 budget per client address or per client (the HTTP Basic client when Basic is used, else `client_id`).';

/** The token endpoints' answers besides the token. */
export const TOKEN_RESPONSES: Record<number, ResponseDoc> = {
  200: { description: 'The token.', headers: NO_STORE },
  400: { description: 'A bad request or grant (RFC 6749 5.2).', content: OAUTH_ERROR_CONTENT },
  401: {
    description: 'Wrong client credentials given with HTTP Basic.',
    content: OAUTH_ERROR_CONTENT,
  },
  429: { description: 'Too many token requests from this address, or for this client.' },
};

/** `GET /oauth/v2/auth`: its error page. */
export const AUTHORIZE_PAGE_RESPONSES: Record<number, ResponseDoc> = {
  200: { description: 'The page.', headers: { 'Set-Cookie': { schema: { type: 'string' } } } },
  400: { description: 'An invalid authorization request (an HTML page).', content: HTML },
};

/** `POST /oauth/v2/auth`: the consent form's pages and redirects, the exchange's errors. */
export const AUTHORIZE_RESPONSES: Record<number, ResponseDoc> = {
  200: {
    description: 'The code exchange\u2019s token.',
    content: { 'application/json': { schema: TOKEN_RESPONSE } },
    headers: NO_STORE,
  },
  302: { description: 'Back to the client with a code or an error (Location header).' },
  400: {
    description: 'An invalid request: an HTML page for the form, RFC 6749 JSON for an exchange.',
    content: { ...HTML, ...OAUTH_ERROR_CONTENT },
  },
  401: {
    description:
      'Wrong e-mail or password: the page again; for an exchange, wrong HTTP Basic client credentials.',
    content: { ...HTML, ...OAUTH_ERROR_CONTENT },
  },
  403: { description: 'An expired or foreign form.', content: HTML },
  429: { description: 'Too many sign-in attempts, or token requests.', content: HTML },
};
