import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { IntegrationWorkspaces } from './integration-workspaces';

export const INTEGRATION_SECRET_HEADER = 'x-integration-secret';

/**
 * The shared secret of the server-to-server routes, checked before their body is read (a
 * caller without it learns nothing from validation errors): 403 without it.
 */
@Injectable()
export class IntegrationSecretGuard implements CanActivate {
  constructor(private readonly workspaces: IntegrationWorkspaces) {}

  canActivate(context: ExecutionContext): boolean {
    const given = context.switchToHttp().getRequest<Request>().headers[INTEGRATION_SECRET_HEADER];
    this.workspaces.authenticate(Array.isArray(given) ? given[0] : given);
    return true;
  }
}
