import { Global, Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { Clock } from '../common/clock';
import { AccessDeclarationsCheck } from './access-declarations.check';
import { AccessGuard } from './access.guard';
import { BearerStrategy } from './bearer.strategy';
import { PrincipalLoader } from './principal-loader';

/** Bearer authentication, the access guard, and the Clock every expiry decision uses. */
@Global()
@Module({
  imports: [PassportModule, DiscoveryModule],
  providers: [
    Clock,
    PrincipalLoader,
    BearerStrategy,
    AccessDeclarationsCheck,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [Clock, PrincipalLoader],
})
export class AccessModule {}
