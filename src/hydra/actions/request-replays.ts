import type { ModuleRef } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { Principal } from '../../access/principal';

/**
 * Replays of POSTs (README "API conventions", `Idempotency-Key`), provided by the idempotency
 * module under REQUEST_REPLAYS in its own `@Module`, so the layer names no feature. The
 * HydraInterceptor calls `begin` for every declared POST once its caller is known and its body
 * read, before its input is validated, its target located and the handler run: `true` means the answer was written (a replay, or a 409 / 422
 * thrown instead) and the handler must not run; `false` lets it run, the provider recording
 * what it answers.
 */
export interface RequestReplays {
  begin(req: Request, res: Response, principal: Principal | null): Promise<boolean>;
}

export const REQUEST_REPLAYS = Symbol('hydra:requestReplays');

/** The REQUEST_REPLAYS provider of the application, if any. */
export function requestReplaysOf(moduleRef: ModuleRef): RequestReplays | undefined {
  try {
    return moduleRef.get<RequestReplays>(REQUEST_REPLAYS, { strict: false });
  } catch {
    return undefined;
  }
}
