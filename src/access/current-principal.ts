import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from './principal';

export type RequestWithPrincipal = Request & { principal?: Principal | null };

export function principalOf(req: Request): Principal | null {
  return (req as RequestWithPrincipal).principal ?? null;
}

/** The authenticated caller, set by the bearer guard. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext) =>
  principalOf(ctx.switchToHttp().getRequest<Request>()),
);
