import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { BearerAuthGuard } from './bearer-auth.guard';
import { BearerStrategy } from './bearer.strategy';
import { PrincipalLoader } from './principal-loader';

@Global()
@Module({
  imports: [PassportModule],
  providers: [PrincipalLoader, BearerStrategy, { provide: APP_GUARD, useClass: BearerAuthGuard }],
  exports: [PrincipalLoader],
})
export class AccessModule {}
