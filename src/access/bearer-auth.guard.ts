import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ApiError } from '../hydra/errors/api-errors';
import type { RequestWithPrincipal } from './current-principal';
import type { Principal } from './principal';
import { IS_PUBLIC } from './public.decorator';

/** Global guard: every route needs a valid bearer token unless marked @Public(). */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super({ session: false });
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    return super.canActivate(context) as Promise<boolean>;
  }

  override handleRequest<T = Principal>(
    err: unknown,
    user: T,
    _info: unknown,
    context: ExecutionContext,
  ): T {
    if (err || !user) {
      throw new ApiError(401, 'Full authentication is required to access this resource.', {
        'WWW-Authenticate': 'Bearer realm="api", error="invalid_token"',
      });
    }
    context.switchToHttp().getRequest<RequestWithPrincipal>().principal =
      user as unknown as Principal;
    return user;
  }
}
