import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ApiError, ForbiddenError } from '../hydra/errors/api-errors';
import type { AccessLevel } from './access-level';
import type { RequestWithPrincipal } from './current-principal';
import type { Principal } from './principal';
import { ACCESS, type AccessDeclaration } from './access.decorator';

const ROLE_MISSING: Partial<Record<AccessLevel, string>> = {
  'workspace:write': 'Read-only access to this workspace.',
  'team:admin': 'Only owners and admins of the team may do this.',
  'team:owner': 'Only owners of the team may do this.',
};

/**
 * Whether the caller has the level anywhere: a write needs at least one workspace they may
 * write to, an admin action at least one team they administer. Known from the principal
 * alone, so such requests stop here whatever their body, before anything is read.
 */
export function mayEverHave(principal: Principal, level: AccessLevel): boolean {
  switch (level) {
    case 'workspace:write': {
      const readOnly = principal.readOnlyWorkspaceIds ?? [];
      return principal.workspaceIds.some((id) => !readOnly.includes(id));
    }
    case 'team:admin':
      return principal.adminTeamIds.length > 0;
    case 'team:owner':
      return (principal.ownerTeamIds ?? []).length > 0;
    default:
      return true;
  }
}

const UNAUTHENTICATED = 'Full authentication is required to access this resource.';

/**
 * The one global guard: every route declares its access (resources by their declaration,
 * actions by `@Action`, the rest by `@Access`); a route without a declaration is refused at
 * start-up (AccessDeclarationsCheck). Every level but `public` needs a valid bearer token
 * (passport, `BearerStrategy`): 401 with `WWW-Authenticate: Bearer` otherwise. Which
 * workspace or team a request is about is checked where it is known (here only whether the
 * caller has the role anywhere, `mayEverHave`): the HydraInterceptor
 * for actions (after their input is validated), the resource pipeline for CRUD.
 */
@Injectable()
export class AccessGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
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
    if (access.level === 'public') return true;
    await super.canActivate(context);
    const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal!;
    if (!mayEverHave(principal, access.level)) throw new ForbiddenError(ROLE_MISSING[access.level]);
    return true;
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
