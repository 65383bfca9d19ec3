import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { BearerAuthGuard } from './bearer-auth.guard';
import { PrincipalLoader } from './principal-loader';

@Global()
@Module({
  providers: [PrincipalLoader, { provide: APP_GUARD, useClass: BearerAuthGuard }],
  exports: [PrincipalLoader],
})
export class AccessModule {}
