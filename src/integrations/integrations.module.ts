import { Module } from '@nestjs/common';
import { SecurityModule } from '../security/security.module';
import { UsersModule } from '../users/users.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { IntegrationLinkStore } from './integration-link-store';
import { IntegrationWorkspaces } from './integration-workspaces';
import { IntegrationsController } from './integrations.controller';
import { HttpStorefrontApp, STOREFRONT_APP } from './storefront-app';
import { StorefrontInstallationStore } from './storefront-installation-store';
import { StorefrontRegistration } from './storefront-registration';

/** Storefront and marketing provider integrations: sign-up from the app, workspace links. */
@Module({
  imports: [WorkspacesModule, UsersModule, SecurityModule],
  controllers: [IntegrationsController],
  providers: [
    StorefrontRegistration,
    IntegrationWorkspaces,
    IntegrationLinkStore,
    StorefrontInstallationStore,
    { provide: STOREFRONT_APP, useClass: HttpStorefrontApp },
  ],
  exports: [STOREFRONT_APP, IntegrationLinkStore],
})
export class IntegrationsModule {}
