import type { ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from '../../access/principal';
import type { ActionContext } from './action-declaration';

/** What the HydraInterceptor prepared for the handler of an action. */
export interface ActionRequest {
  input: unknown;
  principal: Principal | null;
  context: ActionContext;
}

const STATE = Symbol('hydra:action');

export function setActionRequest(req: Request, state: ActionRequest): void {
  (req as unknown as Record<symbol, ActionRequest>)[STATE] = state;
}

export function actionRequestOf(ctx: ExecutionContext): ActionRequest {
  const state = (
    ctx.switchToHttp().getRequest<Request>() as unknown as Record<symbol, ActionRequest>
  )[STATE];
  if (!state) throw new Error('An @Action handler ran without the HydraInterceptor');
  return state;
}
