import { Module } from '@nestjs/common';
import { ShipmentsModule } from '../shipments/shipments.module';
import { ShipmentPredictionStore } from '../shipments/shipment-prediction-store';
import { CheckpointTimelineStore } from '../tracking/checkpoints/checkpoint-timeline-store';
import { TrackingModule } from '../tracking/tracking.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { CarrierPerformanceController } from './api/carrier-performance.controller';
import { CarrierPerformanceService } from './api/carrier-performance.service';
import { AttentionSweeper } from './attention-sweeper';
import { CarrierPerformanceStore } from './carrier-performance-store';
import { PredictionOnShipmentWrite, PredictionOnTrackingApply } from './prediction-hooks';
import { PredictionRecompute } from './prediction-recompute';
import { PredictionStore } from './prediction-store';
import { PredictionWriter } from './prediction-writer';
import { ShipmentFactsSource } from './shipment-facts-source';

/**
 * Delivery predictions, attention and carrier analytics (README.md beside this file): the
 * pure model, the aggregates and their stores; wired to shipment writes and applied tracking
 * batches (PredictionOnShipmentWrite, PredictionOnTrackingApply), the attention sweeper, the carrier analytics route and the CLI.
 * The shipment and checkpoint stores it reads through are stateless classes of their owning
 * modules, provided here so those modules need no change.
 */
@Module({
  imports: [ShipmentsModule, TrackingModule, WorkspacesModule],
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
    CarrierPerformanceService,
  ],
  exports: [
    PredictionStore,
    CarrierPerformanceStore,
    PredictionRecompute,
    PredictionWriter,
    AttentionSweeper,
    ShipmentFactsSource,
  ],
})
export class PredictionsModule {}
