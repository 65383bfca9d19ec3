import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { AccessLevel } from './access-level';
import type { TargetLocator } from './access-target';

export const ACCESS = 'access:declaration';

/** The access a route needs, read by the AccessGuard and the HydraInterceptor. */
export interface AccessDeclaration {
  level: AccessLevel;
  workspace?: TargetLocator;
  team?: TargetLocator;
}

/**
 * Declares the access of a route that is neither a resource operation nor an `@Action` (those
 * declare it themselves): health, docs, the OAuth endpoints, file downloads.
 */
export const Access = (
  level: AccessLevel,
  targets: Omit<AccessDeclaration, 'level'> = {},
): ClassDecorator & MethodDecorator =>
  applyDecorators(SetMetadata(ACCESS, { level, ...targets }), ApiExtension('x-access', level));
