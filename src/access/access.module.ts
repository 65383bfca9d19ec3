import { Global, Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { AccessDeclarationsCheck } from './access-declarations.check';
import { AccessGuard } from './access.guard';
import { BearerStrategy } from './bearer.strategy';
import { PrincipalLoader } from './principal-loader';

@Global()
@Module({
  imports: [PassportModule, DiscoveryModule],
  providers: [
    PrincipalLoader,
    BearerStrategy,
    AccessDeclarationsCheck,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [PrincipalLoader],
})
export class AccessModule {}
