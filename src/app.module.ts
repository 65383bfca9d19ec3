import { IdempotencyModule } from './idempotency/idempotency.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { databaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { loggerOptions } from './config/logger-options';
import { AccessModule } from './access/access.module';
import { HydraModule } from './hydra/hydra.module';
import { TeamsModule } from './teams/teams.module';
import { UsersModule } from './users/users.module';
import { WorkspacesModule } from './workspaces/workspaces.module';
import { RetentionModule } from './retention/retention.module';
import { MediaModule } from './media/media.module';
import { TrackingPagesModule } from './tracking-pages/tracking-pages.module';
import { NotesModule } from './notes/notes.module';
import { FieldsModule } from './fields/fields.module';
import { EntityTypesModule } from './entity-types/entity-types.module';
import { StatusesModule } from './statuses/statuses.module';
import { ShipmentsModule } from './shipments/shipments.module';
import { OrdersModule } from './orders/orders.module';
import { OrderItemsModule } from './order-items/order-items.module';
import { ShipmentItemsModule } from './shipment-items/shipment-items.module';
import { CarriersModule } from './carriers/carriers.module';
import { TrackingStatusesModule } from './tracking/status-catalogue/tracking-statuses.module';
import { JobsModule } from './jobs/jobs.module';
import { NotificationsModule } from './notifications/notifications.module';
import { TrackingModule } from './tracking/tracking.module';
import { PredictionsModule } from './predictions/predictions.module';
import { LookupsModule } from './lookups/lookups.module';
import { AuthModule } from './auth/auth.module';
import { MailModule } from './mail/mail.module';
import { OauthClientsModule } from './oauth-clients/oauth-clients.module';
import { WorkspaceMembersModule } from './workspace-members/workspace-members.module';
import { SecurityModule } from './security/security.module';
import { GeographyModule } from './geography/geography.module';
import { BatchesModule } from './batches/batches.module';
import { ShipmentMergeModule } from './shipments/shipment-merge.module';
import { ExportsModule } from './exports/exports.module';
import { ProductsModule } from './products/products.module';
import { CredentialsModule } from './credentials/credentials.module';
import { WorkflowsModule } from './workflows/workflows.module';
import { EmailNotificationsModule } from './email-notifications/email-notifications.module';
import { EventsModule } from './events/events.module';
import { WidgetsModule } from './widgets/widgets.module';
import { ImportsModule } from './imports/imports.module';
import { BillingModule } from './billing/billing.module';
import { billingSessionSettings } from './billing/billing-mode';
import { IntegrationsModule } from './integrations/integrations.module';
import { DomainsModule } from './domains/domains.module';
import { ThemesModule } from './themes/themes.module';
import { FixturesModule } from './fixtures/fixtures.module';
import { StoreSyncModule } from './store-sync/store-sync.module';
import { RouteIndexer } from './common/route-index';

@Module({
  imports: [
    ConfigModule.forRoot(),
    LoggerModule.forRootAsync({ inject: [AppConfig], useFactory: loggerOptions }),
    databaseModule(billingSessionSettings),
    HealthModule,
    HydraModule,
    AccessModule,
    UsersModule,
    TeamsModule,
    ScheduleModule.forRoot(),
    WorkspacesModule,
    RetentionModule,
    MediaModule,
    TrackingPagesModule,
    NotesModule,
    FieldsModule,
    EntityTypesModule,
    StatusesModule,
    ShipmentsModule,
    OrdersModule,
    OrderItemsModule,
    ShipmentItemsModule,
    CarriersModule,
    TrackingStatusesModule,
    JobsModule,
    NotificationsModule,
    TrackingModule,
    PredictionsModule,
    MailModule,
    AuthModule,
    OauthClientsModule,
    WorkspaceMembersModule,
    SecurityModule,
    LookupsModule,
    GeographyModule,
    BatchesModule,
    ShipmentMergeModule,
    ExportsModule,
    ProductsModule,
    CredentialsModule,
    WorkflowsModule,
    EmailNotificationsModule,
    EventsModule,
    WidgetsModule,
    ImportsModule,
    BillingModule,
    IntegrationsModule,
    DomainsModule,
    ThemesModule,
    FixturesModule,
    StoreSyncModule,
    RateLimitModule,
    IdempotencyModule,
  ],
  providers: [RouteIndexer],
})
export class AppModule {}
