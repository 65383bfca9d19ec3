import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { ShipmentsModule } from '../shipments/shipments.module';
import { TeamLookupStore } from '../teams/team-lookup-store';
import { ShipmentPredictionStore } from '../shipments/shipment-prediction-store';
import { CheckpointTimelineStore } from '../tracking/checkpoints/checkpoint-timeline-store';
import { TrackingModule } from '../tracking/tracking.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { CarrierPerformanceController } from './api/carrier-performance.controller';
import { CarrierPerformanceService } from './api/carrier-performance.service';
import { AttentionDigest } from './attention-digest';
import { AttentionDigestStore } from './attention-digest-store';
import { AttentionSweeper } from './attention-sweeper';
import { CarrierPerformanceStore } from './carrier-performance-store';
import { PredictionBackfill } from './prediction-backfill';
import { PredictionBackfillStore } from './prediction-backfill-store';
import { PredictionOnShipmentWrite, PredictionOnTrackingApply } from './prediction-hooks';
import { PredictionRecompute } from './prediction-recompute';
import { PredictionStore } from './prediction-store';
import { PredictionWriter } from './prediction-writer';
import { ShipmentFactsSource } from './shipment-facts-source';

/**
 * Delivery predictions, attention and carrier analytics (README.md beside this file): the
 * pure model, the aggregates and their stores; wired to shipment writes and applied tracking
 * batches (PredictionOnShipmentWrite, PredictionOnTrackingApply), the attention sweeper, the
 * hourly in-app digest of its events, the backfill of teams that predate predictions, the
 * carrier analytics route and the CLI.
 * The shipment and checkpoint stores it reads through are stateless classes of their owning
 * modules, provided here so those modules need no change.
 */
@Module({
  imports: [ShipmentsModule, TrackingModule, WorkspacesModule, EventsModule, NotificationsModule],
  controllers: [CarrierPerformanceController],
  providers: [
    PredictionStore,
    CarrierPerformanceStore,
    PredictionRecompute,
    ShipmentFactsSource,
    ShipmentPredictionStore,
    CheckpointTimelineStore,
    PredictionWriter,
    PredictionOnShipmentWrite,
    PredictionOnTrackingApply,
    AttentionSweeper,
    AttentionDigest,
    AttentionDigestStore,
    PredictionBackfill,
    PredictionBackfillStore,
    TeamLookupStore,
    CarrierPerformanceService,
  ],
  exports: [
    PredictionStore,
    CarrierPerformanceStore,
    PredictionRecompute,
    PredictionWriter,
    AttentionSweeper,
    AttentionDigest,
    PredictionBackfill,
    ShipmentFactsSource,
  ],
})
export class PredictionsModule {}
