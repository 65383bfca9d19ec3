import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Clock } from '../auth/clock';
import { ApiError } from '../hydra/errors/api-errors';
import { bearerToken } from './bearer-token';
import type { RequestWithPrincipal } from './current-principal';
import { PrincipalLoader } from './principal-loader';
import { IS_PUBLIC } from './public.decorator';

/**
 * Global guard: every route needs a valid bearer token unless marked @Public(). The token
 * resolves to the principal (user, teams, workspaces) in one query, set on the request.
 * (No passport: one strategy needs no framework, and this runs on every request.)
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly principals: PrincipalLoader,
    // Expiry is decided by the injectable clock (src/auth/clock.ts), so tests can move time.
    @Optional() private readonly clock?: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const req = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const token = bearerToken(req);
    const principal = token
      ? await this.principals.fromToken(token, this.clock?.now() ?? new Date())
      : null;
    if (!principal) {
      throw new ApiError(401, 'Full authentication is required to access this resource.', {
        'WWW-Authenticate': 'Bearer realm="api", error="invalid_token"',
      });
    }
    req.principal = principal;
    return true;
  }
}
