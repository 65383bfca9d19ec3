import { Controller, Get, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../access/public.decorator';
import { isStorableText } from '../hydra/filters/filter';
import { authorizationPage, errorPage } from './authorization-page';
import { AuthorizeDocs, AuthorizePageDocs, TokenGetDocs, TokenPostDocs } from './oauth.docs';
import { OAuthService, type OAuthFailure } from './oauth.service';
import { PasswordLogin } from './password-login';
import { TokenThrottlerGuard } from './token-throttler.guard';
import { CSRF_FIELD, csrfTokenValid, issueCsrfToken } from './consent-csrf';
import { RateLimited } from '../rate-limit/rate-budget';
import { AccountThrottle } from '../security/account-throttle';

/** Parameters of the authorization request carried through the login form. */
const AUTHORIZE_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
];

interface ClientView {
  name: string;
  redirectUris: string[];
}

/**
 * OAuth2 endpoints (spec "Authentication"): the token endpoint (GET with query parameters
 * as the spec shows, and the standard form POST), the authorization page, and the code
 * exchange as a JSON POST on /oauth/v2/auth.
 */
@Public()
@Controller('oauth/v2')
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    private readonly login: PasswordLogin,
    private readonly dataSource: DataSource,
    private readonly throttle: AccountThrottle,
  ) {}

  @Get('token')
  @TokenGetDocs()
  @UseGuards(TokenThrottlerGuard)
  async tokenFromQuery(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.token(req.query as Record<string, unknown>, req, res);
  }

  @Post('token')
  @TokenPostDocs()
  @UseGuards(TokenThrottlerGuard)
  async tokenFromBody(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.token(bodyOf(req), req, res);
  }

  /** The login and consent page. Unknown client or redirect URI: an error page, no redirect. */
  @Get('auth')
  @AuthorizePageDocs()
  async authorizePage(@Req() req: Request, @Res() res: Response): Promise<void> {
    const params = pick(req.query as Record<string, unknown>, AUTHORIZE_PARAMS);
    const checked = await this.checkAuthorizationRequest(params);
    if ('error' in checked) return sendHtml(res, 400, errorPage('Invalid request', checked.error));
    // RFC 9700 4.11.2: no automatic redirect to the client before the user has signed in (a
    // registered redirect URI would make this endpoint an open redirector): an error page.
    if (params.response_type !== 'code') {
      return sendHtml(
        res,
        400,
        errorPage('Invalid request', 'Unsupported response_type: only "code" is supported.'),
      );
    }
    params.redirect_uri = checked.redirectUri;
    params[CSRF_FIELD] = issueCsrfToken(req, res);
    sendHtml(
      res,
      200,
      authorizationPage({ clientName: checked.client.name, params }),
      checked.redirectUri,
    );
  }

  /**
   * Two uses: the consent form's POST (form-encoded: e-mail, password, allowed), and the
   * code exchange of the spec (JSON body with grant_type), which answers like the token
   * endpoint.
   */
  @Post('auth')
  @AuthorizeDocs()
  @UseGuards(TokenThrottlerGuard)
  async authorize(@Req() req: Request, @Res() res: Response): Promise<void> {
    const body = bodyOf(req);
    if (body.grant_type !== undefined) return this.token(body, req, res);

    const params = pick(body, AUTHORIZE_PARAMS);
    const checked = await this.checkAuthorizationRequest(params);
    if ('error' in checked) return sendHtml(res, 400, errorPage('Invalid request', checked.error));
    params.redirect_uri = checked.redirectUri;
    if (params.response_type !== 'code') {
      return sendHtml(
        res,
        400,
        errorPage('Invalid request', 'Unsupported response_type: only "code" is supported.'),
      );
    }
    // Only a form our page served to this browser signs in, consents or denies.
    if (!csrfTokenValid(req, body[CSRF_FIELD])) {
      return sendHtml(
        res,
        403,
        errorPage(
          'Expired form',
          'This form has expired or did not come from this site: start again.',
        ),
      );
    }
    params[CSRF_FIELD] = String(body[CSRF_FIELD]);
    if (body.allowed === 'false') {
      res.redirect(
        302,
        withQuery(checked.redirectUri, {
          error: 'access_denied',
          error_description: 'The user denied access',
          state: params.state,
        }),
      );
      return;
    }
    const email = typeof body.email === 'string' ? body.email : '';
    const password = typeof body.password === 'string' ? body.password : '';
    if (email && password) {
      try {
        await this.throttle.spend('password-login', req, email);
      } catch (error) {
        if (!(error instanceof RateLimited)) throw error;
        res.setHeader('Retry-After', String(error.retryAfterSeconds));
        const page = errorPage('Too many attempts', 'Too many sign-in attempts; retry later.');
        return sendHtml(res, 429, page);
      }
    }
    const user = email && password ? await this.login.authenticate(email, password) : null;
    if (!user) {
      const page = authorizationPage({
        clientName: checked.client.name,
        params,
        email,
        error: 'Invalid e-mail or password.',
      });
      return sendHtml(res, 401, page, checked.redirectUri);
    }
    const outcome = await this.oauth.authorize(params, user);
    if ('failure' in outcome) {
      return sendHtml(
        res,
        outcome.failure.status,
        errorPage('Invalid request', outcome.failure.body.error_description),
      );
    }
    res.redirect(302, outcome.redirect);
  }

  private async token(params: Record<string, unknown>, req: Request, res: Response): Promise<void> {
    const outcome = await this.oauth.token(params, req.headers.authorization);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    if (outcome.ok) {
      res.status(200).json(outcome.body);
      return;
    }
    sendFailure(res, outcome.failure);
  }

  /** Client and exact redirect URI; without redirect_uri, the client's only registered one. */
  private async checkAuthorizationRequest(
    params: Record<string, string>,
  ): Promise<{ client: ClientView; redirectUri: string } | { error: string }> {
    if (!params.client_id) return { error: 'Missing parameter: client_id.' };
    // No stored public id holds a NUL (and PostgreSQL refuses to compare one).
    if (!isStorableText(params.client_id)) return { error: 'Unknown client.' };
    const [row] = await this.dataSource.query(
      `SELECT name, redirect_uris FROM oauth_client WHERE public_id = $1`,
      [params.client_id],
    );
    if (!row) return { error: 'Unknown client.' };
    const client: ClientView = { name: row.name, redirectUris: row.redirect_uris };
    if (params.redirect_uri) {
      if (!client.redirectUris.includes(params.redirect_uri)) {
        return { error: 'The redirect_uri is not registered for this client.' };
      }
      return { client, redirectUri: params.redirect_uri };
    }
    if (client.redirectUris.length !== 1) {
      return { error: 'Missing parameter: redirect_uri.' };
    }
    return { client, redirectUri: client.redirectUris[0] };
  }
}

function bodyOf(req: Request): Record<string, unknown> {
  const body = req.body as unknown;
  return body && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

function pick(source: Record<string, unknown>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = source[name];
    if (typeof v === 'string' && v !== '') out[name] = v;
  }
  return out;
}

function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

function sendFailure(res: Response, failure: OAuthFailure): void {
  for (const [k, v] of Object.entries(failure.headers)) res.setHeader(k, v);
  res.status(failure.status).json(failure.body);
}

/**
 * HTML answers. The page's CSP lets the form post here and the browser follow the redirect
 * to the client (browsers apply form-action to redirects after a form submission).
 */
function sendHtml(res: Response, status: number, html: string, redirectUri?: string): void {
  let target = '';
  if (redirectUri) {
    const url = new URL(redirectUri);
    target = url.origin !== 'null' ? ` ${url.origin}` : ` ${url.protocol}`;
  }
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${target}; frame-ancestors 'none'; base-uri 'none'`,
  );
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).type('html').send(html);
}
