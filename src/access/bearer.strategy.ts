import { Injectable, Optional } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { Clock } from '../auth/clock';
import type { Principal } from './principal';
import { PrincipalLoader } from './principal-loader';

/** passport-http-bearer: `Authorization: Bearer <token>` -> principal, or no user. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(
    private readonly principals: PrincipalLoader,
    // Expiry is decided by the injectable clock (src/auth/clock.ts), so tests can move time.
    @Optional() private readonly clock?: Clock,
  ) {
    super();
  }

  async validate(token: string): Promise<Principal | false> {
    return (await this.principals.fromToken(token, this.clock?.now() ?? new Date())) ?? false;
  }
}
