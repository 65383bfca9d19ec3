import { Controller, UseGuards } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import {
  Answer,
  ErrorAnswer,
  PageAnswer,
  RedirectAnswer,
  type HtmlPage,
} from '../hydra/actions/action-result';
import { RateLimited } from '../rate-limit/rate-budget';
import { AccountThrottle } from '../security/account-throttle';
import { authorizationPage, errorPage } from './authorization-page';
import { AuthorizationRequests, authorizationParams } from './authorization-request';
import { CSRF_FIELD, csrfTokenValid, issueCsrfToken } from './consent-csrf';
import { AUTHORIZE_PAGE_RESPONSES, AUTHORIZE_RESPONSES, TOKEN_RESPONSES } from './oauth.docs';
import { AuthorizationRequestInput, AuthorizeInput, TokenRequestInput } from './oauth.input';
import { OAuthToken } from './oauth.output';
import { OAuthService } from './oauth.service';
import { PasswordLogin } from './password-login';
import { TokenThrottlerGuard } from './token-throttler.guard';

/** RFC 6749 5.1: token answers and their errors are never cached. */
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

const UNSUPPORTED_RESPONSE_TYPE = 'Unsupported response_type: only "code" is supported.';

/**
 * OAuth2 endpoints (spec "Authentication"): the token endpoint (GET with query parameters
 * as the spec shows, and the standard form POST), the authorization page, and the code
 * exchange as a JSON POST on /oauth/v2/auth. They speak RFC 6749 (their own error bodies,
 * whatever Accept asks), so their answers are `formats: 'any'`.
 */
@Controller()
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    private readonly login: PasswordLogin,
    private readonly requests: AuthorizationRequests,
    private readonly throttle: AccountThrottle,
  ) {}

  @Action({
    method: 'GET',
    path: '/oauth/v2/token',
    summary: 'Issues an access token from query parameters.',
    description:
      'Issues an access token for the `client_credentials`, `authorization_code` or `refresh_token` grant, in RFC 6749 JSON (errors included), never cached. Prefer the POST: secrets in URLs end up in logs.',
    operationId: 'oauthTokenFromQuery',
    input: TokenRequestInput,
    output: { json: OAuthToken },
    formats: 'any',
    responses: TOKEN_RESPONSES,
    access: 'public',
  })
  @UseGuards(TokenThrottlerGuard)
  tokenFromQuery(input: TokenRequestInput, _principal: Principal | null, context: ActionContext) {
    return this.token(input, context);
  }

  @Action({
    method: 'POST',
    path: '/oauth/v2/token',
    summary: 'Issues an access token (RFC 6749).',
    description:
      'Issues an access token for the `client_credentials`, `authorization_code` or `refresh_token` grant, in RFC 6749 JSON (errors included), never cached. The client authenticates with `client_id`/`client_secret` or HTTP Basic.',
    operationId: 'oauthToken',
    input: TokenRequestInput,
    form: true,
    lenientBody: true,
    output: { json: OAuthToken },
    formats: 'any',
    responses: TOKEN_RESPONSES,
    access: 'public',
  })
  @UseGuards(TokenThrottlerGuard)
  tokenFromBody(input: TokenRequestInput, _principal: Principal | null, context: ActionContext) {
    return this.token(input, context);
  }

  /** The login and consent page. Unknown client or redirect URI: an error page, no redirect. */
  @Action({
    method: 'GET',
    path: '/oauth/v2/auth',
    summary: 'Shows the login and consent page (authorization code flow).',
    description:
      'Checks the client and the exact redirect URI, then answers the page where the user signs in and allows or denies the client. An invalid request is an error page, never a redirect.',
    operationId: 'oauthAuthorizePage',
    input: AuthorizationRequestInput,
    output: { html: true },
    responses: AUTHORIZE_PAGE_RESPONSES,
    access: 'public',
  })
  async authorizePage(
    input: AuthorizationRequestInput,
    _principal: Principal | null,
    context: ActionContext,
  ): Promise<HtmlPage> {
    const params = authorizationParams(input);
    const checked = await this.requests.check(params, context.origin);
    if ('error' in checked) return page(400, errorPage('Invalid request', checked.error));
    // RFC 9700 4.11.2: no automatic redirect to the client before the user has signed in (a
    // registered redirect URI would make this endpoint an open redirector): an error page.
    if (params.response_type !== 'code')
      return page(400, errorPage('Invalid request', UNSUPPORTED_RESPONSE_TYPE));
    params.redirect_uri = checked.redirectUri;
    const csrf = issueCsrfToken(context.header('cookie'), context.origin.startsWith('https:'));
    params[CSRF_FIELD] = csrf.token;
    return page(
      200,
      authorizationPage({ clientName: checked.client.name, params }),
      checked.redirectUri,
      { 'Set-Cookie': csrf.setCookie },
    );
  }

  /**
   * Two uses: the consent form's POST (form-encoded: e-mail, password, allowed), and the
   * code exchange of the spec (JSON body with grant_type), which answers like the token
   * endpoint.
   */
  @Action({
    method: 'POST',
    path: '/oauth/v2/auth',
    summary: 'Signs in and allows or denies a client; or exchanges a code.',
    description:
      'The consent page’s form: on success a redirect to the client with `code` and `state`, else the page again or an error page. A body with `grant_type` is the spec’s code exchange and answers like `POST /oauth/v2/token`.',
    operationId: 'oauthAuthorize',
    input: AuthorizeInput,
    form: true,
    lenientBody: true,
    output: { oneOf: { json: OAuthToken, html: true, redirect: true } },
    formats: 'any',
    responses: AUTHORIZE_RESPONSES,
    access: 'public',
  })
  @UseGuards(TokenThrottlerGuard)
  async authorize(input: AuthorizeInput, _principal: Principal | null, context: ActionContext) {
    if (input.grant_type !== undefined) return this.token(input, context);

    const params = authorizationParams(input);
    const checked = await this.requests.check(params, context.origin);
    if ('error' in checked)
      return new PageAnswer(page(400, errorPage('Invalid request', checked.error)));
    params.redirect_uri = checked.redirectUri;
    if (params.response_type !== 'code')
      return new PageAnswer(page(400, errorPage('Invalid request', UNSUPPORTED_RESPONSE_TYPE)));
    // Only a form our page served to this browser signs in, consents or denies.
    if (!csrfTokenValid(context.header('cookie'), input.csrf_token)) {
      const expired = errorPage(
        'Expired form',
        'This form has expired or did not come from this site: start again.',
      );
      return new PageAnswer(page(403, expired));
    }
    params[CSRF_FIELD] = String(input.csrf_token);
    if (input.allowed === 'false') {
      const denied = withQuery(checked.redirectUri, {
        error: 'access_denied',
        error_description: 'The user denied access',
        state: params.state,
      });
      return new RedirectAnswer({ url: denied, status: 302 });
    }
    const email = typeof input.email === 'string' ? input.email : '';
    const password = typeof input.password === 'string' ? input.password : '';
    let user: Awaited<ReturnType<PasswordLogin['authenticate']>> = null;
    try {
      if (email && password) {
        // Every attempt counts per address; per account only wrong passwords do, and a
        // locked account is refused before its password is checked.
        await this.throttle.spend('password-login', context.ip);
        await this.throttle.assertAccountOpen('password-login', email);
        user = await this.login.authenticate(email, password);
        if (!user) await this.throttle.spendFailure('password-login', email);
      }
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      const tooMany = errorPage('Too many attempts', 'Too many sign-in attempts; retry later.');
      return new PageAnswer(
        page(429, tooMany, undefined, { 'Retry-After': String(error.retryAfterSeconds) }),
      );
    }
    if (!user) {
      const again = authorizationPage({
        clientName: checked.client.name,
        params,
        email,
        error: 'Invalid e-mail or password.',
      });
      return new PageAnswer(page(401, again, checked.redirectUri));
    }
    const outcome = await this.oauth.authorize(params, user);
    if ('failure' in outcome) {
      const failed = errorPage('Invalid request', outcome.failure.body.error_description);
      return new PageAnswer(page(outcome.failure.status, failed));
    }
    return new RedirectAnswer({ url: outcome.redirect, status: 302 });
  }

  /** A token request's RFC 6749 answer: the token, or the error with its status and headers. */
  private async token(
    params: object,
    context: ActionContext,
  ): Promise<Answer<OAuthToken> | ErrorAnswer> {
    const outcome = await this.oauth.token(
      params as Record<string, unknown>,
      context.header('authorization'),
    );
    if (outcome.ok) return new Answer(outcome.body, 200, NO_STORE);
    const { status, body, headers } = outcome.failure;
    return new ErrorAnswer(body, status, { ...NO_STORE, ...headers });
  }
}

function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * An HTML answer. The page's CSP lets the form post here and the browser follow the redirect
 * to the client (browsers apply form-action to redirects after a form submission).
 */
function page(
  status: number,
  html: string,
  redirectUri?: string,
  headers: Record<string, string> = {},
): HtmlPage {
  let target = '';
  if (redirectUri) {
    const url = new URL(redirectUri);
    target = url.origin !== 'null' ? ` ${url.origin}` : ` ${url.protocol}`;
  }
  return {
    html,
    status,
    headers: {
      ...headers,
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${target}; frame-ancestors 'none'; base-uri 'none'`,
      'Cache-Control': 'no-store',
    },
  };
}
