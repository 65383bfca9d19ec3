import type { ResponseDoc } from '../hydra/actions/action-declaration';
import { classSchema } from '../hydra/actions/action-schemas';
import { OAuthToken } from './oauth.output';

/*
 * What the OAuth 2 endpoints answer besides the layer's errors, for their declarations: RFC
 * 6749 token bodies and errors, Cache-Control: no-store, HTML pages, redirects. Their request
 * parameters are documented by their inputs (oauth.input.ts).
 */

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
    content: { 'application/json': { schema: classSchema(OAuthToken) } },
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
