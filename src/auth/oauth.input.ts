import { Documented } from '../hydra/validation/documented';

/*
 * Inputs of the OAuth 2 endpoints. RFC 6749 words its own errors (`invalid_request`,
 * `invalid_client`...) and the consent page shows itself again, so nothing is checked here:
 * each attribute is documented and handed over as sent, and the OAuth server (or the consent
 * flow) judges it. Values that are not strings never reach the library (OAuthService).
 */

const param = (description: string, more: { required?: boolean; enum?: string[] } = {}) =>
  Documented({ type: 'string', description, ...more });

const GRANTS = ['client_credentials', 'authorization_code', 'refresh_token'];

const WORDS = {
  grantType: 'The grant.',
  clientId: 'The client\u2019s public id (or HTTP Basic credentials).',
  clientSecret: 'The client\u2019s secret (confidential clients).',
  code: '`authorization_code`: the code the authorization page redirected with.',
  tokenRedirectUri: '`authorization_code`: the redirect URI of the authorization.',
  codeVerifier: '`authorization_code` with PKCE: the verifier of the challenge.',
  refreshToken: '`refresh_token`: the refresh token to exchange (rotated).',
  tokenScope: 'Space-separated scopes asked for (default: the client\u2019s).',
  authClientId: 'The client\u2019s public id.',
  redirectUri: 'One of the client\u2019s registered redirect URIs (default: its only one).',
  responseType: 'Must be `code`.',
  state: 'Returned unchanged with the code.',
  scope: 'Space-separated scopes asked for.',
  codeChallenge: 'PKCE challenge.',
  codeChallengeMethod: 'PKCE method (`S256`).',
};

/** `GET /oauth/v2/token` (query string) and `POST /oauth/v2/token` (form or JSON). */
export class TokenRequestInput {
  @param(WORDS.grantType, { required: true, enum: GRANTS }) grant_type?: unknown;
  @param(WORDS.clientId) client_id?: unknown;
  @param(WORDS.clientSecret) client_secret?: unknown;
  @param(WORDS.code) code?: unknown;
  @param(WORDS.tokenRedirectUri) redirect_uri?: unknown;
  @param(WORDS.codeVerifier) code_verifier?: unknown;
  @param(WORDS.refreshToken) refresh_token?: unknown;
  @param(WORDS.tokenScope) scope?: unknown;
}

/** `GET /oauth/v2/auth`: the authorization request a client sends the user to. */
export class AuthorizationRequestInput {
  @param(WORDS.authClientId, { required: true }) client_id?: unknown;
  @param(WORDS.redirectUri) redirect_uri?: unknown;
  @param(WORDS.responseType) response_type?: unknown;
  @param(WORDS.state) state?: unknown;
  @param(WORDS.scope) scope?: unknown;
  @param(WORDS.codeChallenge) code_challenge?: unknown;
  @param(WORDS.codeChallengeMethod) code_challenge_method?: unknown;
}

/**
 * `POST /oauth/v2/auth`: the consent page's form (the authorization request carried in hidden
 * fields, the user's e-mail and password, allowed or not, the anti-forgery token), or, with
 * `grant_type`, the spec's code exchange (a token request).
 */
export class AuthorizeInput {
  @param(WORDS.authClientId) client_id?: unknown;
  @param(WORDS.redirectUri) redirect_uri?: unknown;
  @param(WORDS.responseType) response_type?: unknown;
  @param(WORDS.state) state?: unknown;
  @param(WORDS.scope) scope?: unknown;
  @param(WORDS.codeChallenge) code_challenge?: unknown;
  @param(WORDS.codeChallengeMethod) code_challenge_method?: unknown;
  @param('The user\u2019s e-mail address.') email?: unknown;
  @Documented({ type: 'string', format: 'password', description: 'The user\u2019s password.' })
  password?: unknown;
  @param('`false` denies the client.', { enum: ['true', 'false'] }) allowed?: unknown;
  @param('The anti-forgery token of the consent page (equal to its cookie).')
  csrf_token?: unknown;
  @param(`${WORDS.grantType} Given: a token request (code exchange or refresh).`, {
    enum: GRANTS,
  })
  grant_type?: unknown;
  @param(WORDS.clientSecret) client_secret?: unknown;
  @param(WORDS.code) code?: unknown;
  @param(WORDS.codeVerifier) code_verifier?: unknown;
  @param(WORDS.refreshToken) refresh_token?: unknown;
}
