import { Injectable } from '@nestjs/common';
import OAuth2Server, {
  InvalidClientError,
  OAuthError,
  Request as OAuthRequest,
  Response as OAuthResponse,
} from '@node-oauth/oauth2-server';
import { Clock } from '../common/clock';
import { AUTHORIZATION_CODE_LIFETIME, OAuthModel } from './oauth-model';
import { ACCESS_TOKEN_LIFETIME, REFRESH_TOKEN_LIFETIME, TokenResponse } from './token-issuer';
import type { AuthenticatedUser } from './password-login';
import { tokenClient } from './token-client';

export interface OAuthFailure {
  status: number;
  body: { error: string; error_description: string };
  headers: Record<string, string>;
}

export type TokenOutcome = { ok: true; body: TokenResponse } | { ok: false; failure: OAuthFailure };

export type AuthorizeOutcome = { redirect: string } | { failure: OAuthFailure };

/** The OAuth2 server (library) with our model; turns its results into our answers. */
@Injectable()
export class OAuthService {
  private readonly server: OAuth2Server;
  /**
   * The same server, but a refresh needs only the `client_id`: for a public client alone (the
   * console cannot keep a secret), whose rotation and family revocation on reuse stand in for
   * it (OAuth 2.1, RFC 9700 2.2.2). Confidential clients never reach it.
   */
  private readonly publicClientServer: OAuth2Server;

  constructor(
    readonly model: OAuthModel,
    private readonly clock: Clock,
  ) {
    const options: OAuth2Server.ServerOptions = {
      model,
      accessTokenLifetime: ACCESS_TOKEN_LIFETIME,
      refreshTokenLifetime: REFRESH_TOKEN_LIFETIME,
      authorizationCodeLifetime: AUTHORIZATION_CODE_LIFETIME,
      allowEmptyState: true,
      alwaysIssueNewRefreshToken: true,
    };
    this.server = new OAuth2Server(options);
    this.publicClientServer = new OAuth2Server({
      ...options,
      requireClientAuthentication: { refresh_token: false },
    });
  }

  /**
   * A token request with the parameters of any transport (query string, form, JSON body).
   * `authorization` is the request's Authorization header (HTTP Basic client credentials).
   */
  async token(params: Record<string, unknown>, authorization?: string): Promise<TokenOutcome> {
    const body = stringParams(params);
    // One client per request, the one the rate limit counted (RFC 6749 2.3).
    const { clientId, basic, invalid } = tokenClient(authorization, body);
    if (invalid) return { ok: false, failure: invalidRequest(invalid) };
    const server =
      body.grant_type === 'refresh_token' &&
      !basic &&
      !body.client_secret &&
      clientId !== null &&
      (await this.model.isPublicClient(clientId))
        ? this.publicClientServer
        : this.server;
    const request = new OAuthRequest({
      method: 'POST',
      query: {},
      body,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(JSON.stringify(body).length),
        ...(authorization ? { authorization } : {}),
      },
    });
    const response = new OAuthResponse({ headers: {} });
    try {
      const token = await server.token(request, response);
      const user = token.user as AuthenticatedUser;
      const expiresAt = token.accessTokenExpiresAt!.getTime();
      const scope = Array.isArray(token.scope) ? token.scope.join(' ') : (token.scope ?? null);
      return {
        ok: true,
        body: {
          access_token: token.accessToken,
          expires_in: Math.round((expiresAt - this.clock.now().getTime()) / 1000),
          token_type: 'bearer',
          scope: scope || null,
          ...(token.refreshToken ? { refresh_token: token.refreshToken } : {}),
          user_id: user.id,
          user_email: user.email,
        },
      };
    } catch (error) {
      return { ok: false, failure: failureOf(error) };
    }
  }

  /**
   * Issues a code for a signed-in user who allowed the client; the library checks the
   * client, the exact redirect URI, the response type and the PKCE parameters.
   */
  async authorize(
    params: Record<string, unknown>,
    user: AuthenticatedUser,
  ): Promise<AuthorizeOutcome> {
    const body = stringParams(params);
    const request = new OAuthRequest({
      method: 'POST',
      query: {},
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const response = new OAuthResponse({ headers: {} });
    try {
      await this.server.authorize(request, response, {
        authenticateHandler: { handle: () => user },
      });
    } catch (error) {
      // Errors found once client and redirect URI are trusted go back to the client.
      const location = response.get('location') as string | undefined;
      if (location) return { redirect: location };
      return { failure: failureOf(error) };
    }
    return { redirect: response.get('location') as string };
  }
}

const CLIENT_FAILURE = 'The client credentials are invalid';

function invalidRequest(description: string): OAuthFailure {
  return {
    status: 400,
    body: { error: 'invalid_request', error_description: description },
    headers: {},
  };
}

function failureOf(error: unknown): OAuthFailure {
  if (error instanceof InvalidClientError) {
    // 401 only when the client authenticated with HTTP Basic (RFC 6749 5.2).
    const basic = error.code === 401;
    return {
      status: basic ? 401 : 400,
      body: { error: 'invalid_client', error_description: CLIENT_FAILURE },
      headers: basic ? { 'WWW-Authenticate': 'Basic realm="oauth"' } : {},
    };
  }
  if (error instanceof OAuthError && error.code < 500) {
    return {
      status: error.code,
      body: { error: error.name, error_description: error.message },
      headers: {},
    };
  }
  throw error;
}

/** Only string parameters reach the library (a JSON body may carry anything). */
function stringParams(params: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params ?? {})) {
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
  }
  return out;
}
