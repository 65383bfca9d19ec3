import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { Principal } from './principal';
import { PrincipalLoader } from './principal-loader';

/** passport-http-bearer: `Authorization: Bearer <token>` -> principal, or no user. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly principals: PrincipalLoader) {
    super();
  }

  async validate(token: string): Promise<Principal | false> {
    return (await this.principals.fromToken(token)) ?? false;
  }
}
