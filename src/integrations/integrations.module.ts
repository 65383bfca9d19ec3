import { Module } from '@nestjs/common';
import { HttpStorefrontApp, STOREFRONT_APP } from './storefront-app';

/** Storefront and marketing provider integrations: sign-up from the app, workspace links. */
@Module({
  providers: [{ provide: STOREFRONT_APP, useClass: HttpStorefrontApp }],
  exports: [STOREFRONT_APP],
})
export class IntegrationsModule {}
