import { Injectable, Optional } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import type { StrategyCreatedStatic } from 'passport';
import { Strategy } from 'passport-http-bearer';
import { Clock } from '../common/clock';
import { bearerToken } from './bearer-token';
import type { Principal } from './principal';
import { PrincipalLoader } from './principal-loader';

/**
 * Bearer tokens through passport-http-bearer: the token resolves to the principal (user,
 * teams, workspaces) in one query. Extraction follows RFC 6750 as before (header, form body
 * or query, exactly one of them; `bearer-token.ts`), where passport-http-bearer's own would
 * answer 400 to a request using two methods instead of refusing the token.
 */
const CHALLENGE = 'Bearer realm="api", error="invalid_token"';

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(
    private readonly principals: PrincipalLoader,
    // Expiry is decided by the injectable clock (src/common/clock.ts), so tests can move time.
    @Optional() private readonly clock?: Clock,
  ) {
    super({ realm: 'api' });
  }

  async validate(token: string): Promise<Principal | false> {
    return (await this.principals.fromToken(token, this.clock?.now() ?? new Date())) ?? false;
  }

  override authenticate(req: Request): void {
    // success/fail/error are attached by passport to each strategy instance it runs.
    const self = this as unknown as StrategyCreatedStatic;
    const token = bearerToken(req);
    if (!token) return self.fail(CHALLENGE, 401);
    this.validate(token).then(
      (principal) => (principal ? self.success(principal) : self.fail(CHALLENGE, 401)),
      (error: unknown) => self.error(error as Error),
    );
  }
}
