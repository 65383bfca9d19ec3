import { DiscoveryModule } from '@nestjs/core';
import { TrackingApplyExtensions } from './tracking-service/tracking-apply-extensions';
import { Module } from '@nestjs/common';
import { ResourceController } from '../hydra/controller/resource-controller';
import { CredentialsModule } from '../credentials/credentials.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ShipmentsModule } from '../shipments/shipments.module';
import { CheckpointPageStore } from './checkpoints/checkpoint-page-store';
import { TrackingCheckpoint } from './checkpoints/tracking-checkpoint.entity';
import { ShipmentLookup } from './checks/shipment-lookup';
import { TrackingChecks } from './checks/tracking-checks';
import { TrackingChecksController } from './checks/tracking-checks.controller';
import { Clock } from './clock';
import { TrackingIngest } from './ingest/tracking-ingest';
import { TrackingIngestController } from './ingest/tracking-ingest.controller';
import { CarrierDetectionController } from './carrier-detection.controller';
import { SandboxTrackingProvider, TrackingProviderRegistry } from './providers';
import { TrackingRerouter } from './refresh/tracking-rerouter';
import { ProviderCredentialsStore } from './providers/remote/provider-credentials-store';
import { RemoteTracking } from './providers/remote/remote-tracking';
import { TrackingRefresher } from './refresh/tracking-refresher';
import { TrackingStatusesModule } from './status-catalogue/tracking-statuses.module';
import { TrackingOnWrite } from './tracking-on-write';
import { TeamLookupStore } from '../teams/team-lookup-store';
import { TrackingService } from './tracking-service/tracking.service';
import { TrackingFetcher } from './tracking-service/tracking-fetcher';
import { TrackingWebhooks } from './webhooks/tracking-webhooks';
import { PushThrottle } from './webhooks/push-throttle';
import { TrackingWebhooksController } from './webhooks/tracking-webhooks.controller';

/** GET /tracking_checkpoints, /shipments/{id}/checkpoints and the nested forms. */
export class TrackingCheckpointsController extends ResourceController(TrackingCheckpoint) {}

/**
 * The tracking engine wired to the application: providers (the sandbox carrier `tm-test`;
 * real carriers are further adapters registered here, before the no-info fallback),
 * tracking on shipment writes, background refresh, checks on demand, pushed checkpoints,
 * and the checkpoint and status resources.
 */
@Module({
  imports: [
    DiscoveryModule,
    ShipmentsModule,
    NotificationsModule,
    TrackingStatusesModule,
    CredentialsModule,
    RateLimitModule,
  ],
  controllers: [
    CarrierDetectionController,
    TrackingCheckpointsController,
    TrackingChecksController,
    TrackingIngestController,
    TrackingWebhooksController,
  ],
  providers: [
    Clock,
    {
      provide: TrackingProviderRegistry,
      useFactory: () => new TrackingProviderRegistry([new SandboxTrackingProvider()]),
    },
    ProviderCredentialsStore,
    // The admins told of refused credentials (TeamsModule depends on workspaces, a cycle).
    TeamLookupStore,
    RemoteTracking,
    TrackingWebhooks,
    PushThrottle,
    TrackingService,
    // Work of other modules in applied tracking batches (delivery predictions).
    TrackingApplyExtensions,
    TrackingFetcher,
    // Tracks shipments on create and on a new number (a shipment write extension).
    TrackingOnWrite,
    TrackingRefresher,
    TrackingRerouter,
    TrackingChecks,
    ShipmentLookup,
    TrackingIngest,
    CheckpointPageStore,
  ],
  exports: [
    Clock,
    TrackingProviderRegistry,
    TrackingService,
    TrackingRefresher,
    TrackingChecks,
    RemoteTracking,
    CheckpointPageStore,
  ],
})
export class TrackingModule {}
