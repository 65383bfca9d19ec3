import { Inject, Injectable, Optional, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { ApiError } from '../common/errors/api-errors';
import { assertDelegation } from './access-level';
import { ACCESS, type AccessDeclaration } from './access.decorator';
import { principalOf } from './current-principal';
import { REQUEST_BUDGET, type RequestBudget } from './request-budget';

const UNAUTHENTICATED = 'Full authentication is required to access this resource.';

/**
 * The one global guard: every route declares its access (resources by their declaration,
 * actions by `@Action`, the rest by `@Access`); a route without a declaration is refused at
 * start-up (AccessDeclarationsCheck). Every level but `public` needs a valid bearer token
 * (passport, `BearerStrategy`): 401 with `WWW-Authenticate: Bearer` otherwise; a token granted
 * to a third-party application gets 403 on a route that refuses them (`delegated`). Which
 * workspace or team a request is about is checked where it is known: the HydraInterceptor
 * for actions (after their input is validated), the resource pipeline for CRUD. Every request
 * counts against the REQUEST_BUDGET once the caller is known (a failed authentication against
 * its client address), before any other work.
 */
@Injectable()
export class AccessGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    @Optional() @Inject(REQUEST_BUDGET) private readonly budget?: RequestBudget,
  ) {
    super({ property: 'principal', session: false });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<AccessDeclaration | undefined>(ACCESS, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!access)
      throw new Error(
        `Route ${context.getClass().name}.${context.getHandler().name} declares no access`,
      );
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (access.level === 'public') {
      this.budget?.charge(req, res, null);
      return true;
    }
    let authenticated: boolean;
    try {
      authenticated = (await super.canActivate(context)) as boolean;
    } catch (error) {
      this.budget?.charge(req, res, null);
      throw error;
    }
    const principal = principalOf(req);
    this.budget?.charge(req, res, principal);
    if (principal) assertDelegation(principal, access.delegated);
    return authenticated;
  }

  override handleRequest<T>(error: unknown, principal: T): T {
    if (error) throw error;
    if (!principal) {
      throw new ApiError(401, UNAUTHENTICATED, {
        'WWW-Authenticate': 'Bearer realm="api", error="invalid_token"',
      });
    }
    return principal;
  }
}
