import { Module } from '@nestjs/common';
import { IntegrationsModule } from '../integrations/integrations.module';
import { ShipmentsModule } from '../shipments/shipments.module';
import { TeamsModule } from '../teams/teams.module';
import { UsersModule } from '../users/users.module';
import { BillingEventStore } from './billing-event-store';
import { BILLING_PROVIDER } from './billing-provider';
import { BillingWebhooks } from './billing-webhooks';
import { BillingController } from './billing.controller';
import { BillingService } from './billing.service';
import { CheckoutStore } from './checkout-store';
import { EntitlementStore } from './entitlement-store';
import { EntitlementsGuard } from './entitlements-guard';
import { HttpBillingProvider } from './http-billing-provider';
import { StorefrontBilling } from './storefront-billing';
import { SubscriptionStore } from './subscription-store';

/**
 * Plans, subscriptions, checkouts, the provider's and the storefront app's webhooks, the
 * storefront charges' return, and plan limits on writes.
 */
@Module({
  imports: [IntegrationsModule, ShipmentsModule, TeamsModule, UsersModule],
  controllers: [BillingController],
  providers: [
    BillingService,
    BillingWebhooks,
    StorefrontBilling,
    // Plan limits: also a shipment write extension (the volume read with a create).
    EntitlementsGuard,
    SubscriptionStore,
    CheckoutStore,
    BillingEventStore,
    EntitlementStore,
    { provide: BILLING_PROVIDER, useClass: HttpBillingProvider },
  ],
  exports: [EntitlementsGuard, BillingService],
})
export class BillingModule {}
