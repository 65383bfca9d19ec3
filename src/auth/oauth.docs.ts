import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiResponse,
} from '@nestjs/swagger';

/*
 * OpenAPI declarations of the OAuth2 endpoints. They speak RFC 6749 (form bodies, their own
 * error bodies, Cache-Control: no-store, redirects), so they are plain routes rather than
 * declared actions; these decorators describe them for /docs.json and generated clients.
 */

const TOKEN_PARAMS: Record<string, { description: string; enum?: string[] }> = {
  grant_type: {
    description: 'The grant.',
    enum: ['client_credentials', 'authorization_code', 'refresh_token'],
  },
  client_id: { description: 'The client\u2019s public id (or HTTP Basic credentials).' },
  client_secret: { description: 'The client\u2019s secret (confidential clients).' },
  code: { description: '`authorization_code`: the code the authorization page redirected with.' },
  redirect_uri: { description: '`authorization_code`: the redirect URI of the authorization.' },
  code_verifier: { description: '`authorization_code` with PKCE: the verifier of the challenge.' },
  refresh_token: { description: '`refresh_token`: the refresh token to exchange (rotated).' },
  scope: { description: 'Space-separated scopes asked for (default: the client\u2019s).' },
};

const TOKEN_REQUEST = {
  type: 'object',
  required: ['grant_type'],
  properties: Object.fromEntries(
    Object.entries(TOKEN_PARAMS).map(([name, p]) => [name, { type: 'string', ...p }]),
  ),
};

const TOKEN_RESPONSE = {
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

const TOKEN_DESCRIPTION =
  'Public (the client authenticates itself with `client_id`/`client_secret` or HTTP Basic). Issues an access token for the grant: `client_credentials` (the client\u2019s owner), `authorization_code` (with `code`, `redirect_uri` and, for PKCE, `code_verifier`), or `refresh_token` (rotated; a reused one revokes its family). Answers RFC 6749 JSON with Cache-Control: no-store. Errors are RFC 6749 bodies `{error, error_description}`: 400 for a bad request or grant, 401 `invalid_client` for wrong HTTP Basic credentials, 429 beyond the token endpoint\u2019s budget per client address.';

const tokenResponses = () => [
  ApiProduces('application/json'),
  ApiResponse({
    status: 200,
    description: 'The token.',
    headers: NO_STORE,
    content: { 'application/json': { schema: TOKEN_RESPONSE } },
  }),
  ApiResponse({
    status: 400,
    description: 'A bad request or grant (RFC 6749 5.2).',
    content: { 'application/json': { schema: OAUTH_ERROR } },
  }),
  ApiResponse({
    status: 401,
    description: 'Wrong client credentials given with HTTP Basic.',
    content: { 'application/json': { schema: OAUTH_ERROR } },
  }),
  ApiResponse({ status: 429, description: 'Too many token requests from this address.' }),
];

/** `POST /oauth/v2/token`: the standard form POST. */
export const TokenPostDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Issues an access token (RFC 6749).',
      description: TOKEN_DESCRIPTION,
      operationId: 'oauthToken',
    }),
    ApiConsumes('application/x-www-form-urlencoded', 'application/json'),
    ApiBody({ schema: TOKEN_REQUEST, required: true }),
    ...tokenResponses(),
  );

/** `GET /oauth/v2/token`: the same parameters in the query string, as the spec shows. */
export const TokenGetDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Issues an access token from query parameters.',
      description: `${TOKEN_DESCRIPTION} The parameters come in the query string (prefer the POST: secrets in URLs end up in logs).`,
      operationId: 'oauthTokenFromQuery',
    }),
    ...Object.entries(TOKEN_PARAMS).map(([name, p]) =>
      ApiQuery({
        name,
        required: name === 'grant_type',
        description: p.description,
        schema: { type: 'string', ...(p.enum ? { enum: p.enum } : {}) },
      }),
    ),
    ...tokenResponses(),
  );

const AUTHORIZE_PARAMS: Record<string, string> = {
  client_id: 'The client\u2019s public id.',
  redirect_uri: 'One of the client\u2019s registered redirect URIs (default: its only one).',
  response_type: 'Must be `code`.',
  state: 'Returned unchanged with the code.',
  scope: 'Space-separated scopes asked for.',
  code_challenge: 'PKCE challenge.',
  code_challenge_method: 'PKCE method (`S256`).',
};

const HTML = { 'text/html': { schema: { type: 'string' } } };

/** `GET /oauth/v2/auth`: the login and consent page. */
export const AuthorizePageDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Shows the login and consent page (authorization code flow).',
      description:
        'Public, for browsers. Checks the client and the exact redirect URI, then answers an HTML page where the user signs in and allows or denies the client; the page carries a CSRF token bound to a cookie set here. An unknown client, an unregistered redirect URI or a `response_type` other than `code` is a 400 error page, never a redirect (RFC 9700). Never cached; a Content-Security-Policy lets the form post here only.',
      operationId: 'oauthAuthorizePage',
    }),
    ApiProduces('text/html'),
    ...Object.entries(AUTHORIZE_PARAMS).map(([name, description]) =>
      ApiQuery({ name, required: name === 'client_id', description, schema: { type: 'string' } }),
    ),
    ApiResponse({ status: 200, description: 'The page.', content: HTML }),
    ApiResponse({ status: 400, description: 'An invalid authorization request.', content: HTML }),
  );

/** `POST /oauth/v2/auth`: the consent form, or the spec's JSON code exchange. */
export const AuthorizeDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Signs in and allows or denies a client; or exchanges a code.',
      description:
        'Public. The consent page\u2019s form (`email`, `password`, `allowed`, the authorization parameters and the CSRF token): on success a 302 to the redirect URI with `code` and `state`; `allowed=false` redirects with `error=access_denied`. Wrong credentials answer the page again (401); an expired or foreign form 403; too many sign-in attempts 429 (Retry-After); an invalid request a 400 error page. A JSON body with `grant_type` is the spec\u2019s code exchange and answers like `POST /oauth/v2/token`.',
      operationId: 'oauthAuthorize',
    }),
    ApiConsumes('application/x-www-form-urlencoded', 'application/json'),
    ApiBody({
      required: true,
      schema: {
        type: 'object',
        properties: {
          email: { type: 'string' },
          password: { type: 'string', format: 'password' },
          allowed: { type: 'string', enum: ['true', 'false'] },
          ...Object.fromEntries(
            Object.entries(AUTHORIZE_PARAMS).map(([n, d]) => [
              n,
              { type: 'string', description: d },
            ]),
          ),
          ...TOKEN_REQUEST.properties,
        },
      },
    }),
    ApiResponse({
      status: 200,
      description: 'The code exchange\u2019s token.',
      content: { 'application/json': { schema: TOKEN_RESPONSE } },
    }),
    ApiResponse({ status: 302, description: 'Back to the client with a code or an error.' }),
    ApiResponse({ status: 400, description: 'An invalid request (an HTML page).', content: HTML }),
    ApiResponse({
      status: 401,
      description: 'Wrong e-mail or password: the page again.',
      content: HTML,
    }),
    ApiResponse({ status: 403, description: 'An expired or foreign form.', content: HTML }),
    ApiResponse({ status: 429, description: 'Too many sign-in attempts.', content: HTML }),
  );
