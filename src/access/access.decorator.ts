import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { delegatedByDefault, type AccessLevel } from './access-level';
import type { TargetLocator } from './access-target';

export const ACCESS = 'access:declaration';

/** The access a route needs, read by the AccessGuard and the HydraInterceptor. */
export interface AccessDeclaration {
  level: AccessLevel;
  /**
   * Whether tokens granted to third-party applications (authorization code) may call the
   * route; the AccessGuard answers 403 otherwise. Resolved from the declaration, else
   * `delegatedByDefault(level)`.
   */
  delegated: boolean;
  workspace?: TargetLocator;
  team?: TargetLocator;
}

/**
 * Declares the access of a route that is neither a resource operation nor an `@Action` (those
 * declare it themselves): health, docs, the OAuth endpoints, file downloads.
 */
export const Access = (
  level: AccessLevel,
  targets: Partial<Omit<AccessDeclaration, 'level'>> = {},
): ClassDecorator & MethodDecorator => {
  const delegated = targets.delegated ?? delegatedByDefault(level);
  return applyDecorators(
    SetMetadata(ACCESS, { ...targets, level, delegated }),
    ApiExtension('x-access', level),
    ApiExtension('x-delegated', delegated),
  );
};
